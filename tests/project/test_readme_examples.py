"""Every ``petheory ...`` example of the README and of the docs pages (docs/**/*.md) runs as shown.

The examples are extracted from the README itself (``bash`` blocks, with their ``VAR=...`` lines,
and the ``$ petheory ...`` lines shown with their output) and run in a scratch folder that sees the
clone's ``tests/``, ``examples/`` and ``records/`` (so nothing is written into the clone). Each one
is classified below: ``FAST`` ones run in the default test run, ``SLOW`` ones (training, the whole
catalogue, figures) are marked slow, ``REFUSED`` ones are the README's own examples of a one-line
refusal (exit 2), and ``YOURS`` ones name a file the reader brings (``reviews.txt``,
``my_pe.npy``, a plugin): they are not run. A README example that is in none of the tables fails,
and so does a table entry the README no longer has, so the lists stay current.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from petheory.cli import main

ROOT = Path(__file__).resolve().parents[2]

FAST = {
    "petheory check --list --claims 'li2025.*'",
    "petheory check --list --json -",
    "petheory check --claims li2025.alibi_monotone_bias --case '{\"n\": 3, \"slope\": 0.5}'",
    "petheory check --claims 'gu2025.schur_modulus#psd_equal_spectra'",
    "petheory check --claims 'li2025.sinusoidal_norm_bound,gu2025.spectral_contraction*'",  # the check guide's example (3 claims, ~6 s)
    "petheory encodings",
    "petheory encodings --json -",
    "petheory report --pe tests/data/hf_configs/llama3_1_8b.json --markdown results/llama3_1.md",
    "petheory report --pe tests/data/hf_configs/gemma3_4b.json --length 32768 --null-draws 20",
    "petheory report --pe tests/data/hf_configs/qwen2_5_vl_7b.json --length 32768 --null-draws 20",
    "petheory report --pe rope:base=1e+06 -d 128 --context 32768 --length 1",
    "petheory compare --pe tests/data/hf_configs/llama3_1_8b.json --pe rope:base=5e5 -d 128 --length 1024",
    "petheory bounds --pe rope --pe rope_pi:scale=4 --pe rope_ntk:scale=4 --pe rope_yarn:scale=4 --pe xpos "
    "--pe kerple_log --lengths 2048 --context 512",
    "petheory bounds --pe sinusoidal --pe legendre --pe wavelet --pe alibi --pe rope --lengths 200 --context 50 --m 1000",
    "petheory sweep examples/table5.toml --out runs/table5 --dry-run",
    "petheory figures --list",
    "petheory lrc --pe relative --target copy --hint shift",
    "petheory rotate --pe tests/data/hf_configs/qwen2_5_7b_yarn.json --positions 0,1,2,4095,32767,131071 "
    "--out results/rotate/qwen",
    "petheory rotate --pe gguf:tests/data/gguf/llama_yarn.gguf --out results/rotate/llama-gguf",
    "petheory plan --pe tests/data/hf_configs/qwen2_5_7b_yarn.json --length 131072",
    "petheory plan --pe tests/data/hf_configs/gemma3_27b.json --length 262144 --markdown -",
    "petheory check --claims '*.plan_check_predicts_small_extension'",
    "petheory figures --only retrieval.extension_lengths",
}
SLOW = {
    "petheory check",
    "petheory check --claims 'gu2025.*,li2025.sinusoidal_norm_bound' --profile thorough",
    "petheory report --pe $F/llama3_1_8b.json --pe $F/qwen2_5_7b_yarn.json --pe $F/phi3_mini_128k.json "
    "--pe $F/deepseek_v3.json --pe $F/gemma3_4b.json --pe $F/mistral_7b.json --pe $F/gpt_neox_20b.json "
    "--null-draws 20 --multiples 1 --figure figures/models.report.png",
    "petheory spectrum --kernel exponential --kernel-length 4 --length 4096 --method exact",
    "petheory train running_sum --pe alibi --preset smoke --out runs/rs-alibi",
    "petheory train gu2025_task1 --pe rope+sinusoidal --preset small --out runs/t1",
    "petheory sweep --task running_sum --pe alibi --pe rope --pe sinusoidal --seeds 0 1 --out runs/demo",
    "petheory sweep examples/table5.toml --out runs/table5 --engine process",
    "petheory check --claims 'chen2025.*'",
    "petheory figures --only 'lengthgen.*'",
    "petheory train passkey --preset small --pe rope --out runs/passkey-rope",
    "petheory extend runs/passkey-rope --method rope --method rope_pi --method rope_ntk --method rope_yarn "
    "--lengths 32,64,128,256,512 --depths 0,0.5,1",
    "petheory extend runs/passkey-rope --method rope_pi --method rope_yarn --finetune-steps 60",
    "petheory check --claims 'chen2023.in_range_keeps_retrieval,peng2023.yarn_extends_further'",
    "petheory figures --only 'retrieval.*'",
    "petheory figures",
    "petheory figures --only 'bounds.*'",
    "petheory figures --update-committed",
    "petheory spectrum --kernel exponential --length 10000 --method exact --max-memory 100M",
    "petheory check --claims gu2025.classical_toeplitz_eigs_in_symbol_range --case "
    "'{\"coeffs\": [0.0], \"coeffs_imag\": [0.0], \"n\": 1000000000000}'",
}
REFUSED = {
    "petheory spectrum --kernel exponential --length 100000000000",
}
YOURS = {
    "petheory stress --pe sinusoidal -d 64 $C": "reviews.txt",
    "petheory stress --pe rope -d 64 $C": "reviews.txt",
    "petheory stress --pe alibi $C": "reviews.txt",
    "petheory stress --pe my_pe.npy $C": "my_pe.npy and reviews.txt",
    "petheory stress --pe hf:minilm --corpus reviews.txt --tokenizer hf:minilm --max-vocab 48 --min-count 100":
        "reviews.txt",
    "petheory encodings --plugin ./my_pes.py": "my_pes.py (the plugin shown above it)",
    "petheory bands --pe hf:gemma4-tiny --figure bands.png": "a model folder (a tiny Gemma 4 saved by transformers, as "
                                                              "tests/loaders/test_band_usage_models.py saves one)",
    "petheory check --plugin ./my_pes.py --claims 'user2099.*'": "my_pes.py",
    "petheory check --plugin mypkg.my_pes --claims 'user2099.*'": "an importable mypkg",
    "petheory report --pe hub/model/config.json": "a hostile hub folder (tests/hostile/test_hostile_hub.py builds it)",
    "petheory stress --pe hf:hub/model": "a hostile hub folder (tests/hostile/test_hostile_hub.py builds it)",
    "petheory report --pe hf:./Kimi-K2-Instruct --as-family deepseek_v3 --length 131072":
        "a local copy of moonshotai/Kimi-K2-Instruct's config.json (tests/models/test_named_models.py builds its fields)",
}


def readme_examples() -> list[tuple[str, dict]]:
    """(command without its trailing comment, the VAR=... assignments before it in its block)."""
    out, env, in_block, lang, buf = [], {}, False, "", ""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]  # the README and the docs' guide
    # not what the docs build writes into docs/ when built in place (docs/conf.py: _build/, api/, the gallery's pages)
    generated = {"_build", "api", "gallery", "gallery.md"}
    pages = [p for p in pages if not generated & set(p.relative_to(ROOT / "docs").parts if p.is_relative_to(ROOT / "docs") else ())]
    for line in (ln for page in pages for ln in page.read_text(encoding="utf-8").splitlines()):
        if line.startswith("```"):
            in_block, lang, env = (not in_block), line[3:].strip(), ({} if not in_block else env)
            continue
        text = line.rstrip()
        if not in_block or not (buf or text.startswith(("petheory ", "$ petheory ")) or
                                (lang == "bash" and re.match(r"^[A-Z]+=", text))):
            continue
        if text.startswith("$ ") and not buf:
            text = text[2:]
        if not text.startswith("petheory ") and not buf and lang != "bash":
            continue
        buf = f"{buf} {text.strip()}" if buf else text
        if buf.endswith("\\"):
            buf = buf[:-1].rstrip()
            continue
        cmd, buf = _strip_comment(buf), ""
        m = re.match(r"^([A-Z]+)=(.*)$", cmd)
        if m:
            env[m.group(1)] = shlex.split(m.group(2))[0] if m.group(2) else ""
        else:
            out.append((" ".join(cmd.split()), dict(env)))
    return out


def _strip_comment(cmd: str) -> str:
    """The command before a `` # comment`` outside quotes."""
    quote = None
    for i, ch in enumerate(cmd):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and i and cmd[i - 1].isspace():
            return cmd[:i].rstrip()
    return cmd.strip()


def test_every_readme_example_is_classified_and_every_entry_is_current():
    found = {cmd for cmd, _ in readme_examples()}
    known = FAST | SLOW | REFUSED | set(YOURS)
    assert not found - known, f"README examples in no table of {__file__}: {sorted(found - known)}"
    assert not known - found, f"table entries the README no longer has: {sorted(known - found)}"


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    for name in ("tests", "examples", "records"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "runs"))
    return tmp_path


def _run(cmd: str, env: dict, capsys) -> tuple[int, str]:
    for name, value in env.items():  # the block's own VAR=... lines, as the shell would expand them
        cmd = cmd.replace(f"${name}", value)
    argv = shlex.split(cmd)
    assert argv[0] == "petheory"
    rc = main(argv[1:])
    out, err = capsys.readouterr()
    return rc, err


def _examples(table):
    return [pytest.param(cmd, env, id=cmd[9:60]) for cmd, env in readme_examples() if cmd in table]


@pytest.mark.parametrize("cmd,env", _examples(FAST))
def test_fast_readme_example_runs(cmd, env, scratch, capsys):
    rc, err = _run(cmd, env, capsys)
    assert rc == 0, err


@pytest.mark.slow
@pytest.mark.parametrize("cmd,env", _examples(SLOW))
def test_slow_readme_example_runs(cmd, env, scratch, capsys):
    if "--update-committed" in cmd:
        pytest.skip("rewrites the committed figures/: run by hand, never from a test")
    rc, err = _run(cmd, env, capsys)
    assert rc == 0, err


@pytest.mark.parametrize("cmd,env", _examples(REFUSED))
def test_readme_refusal_example_is_one_line(cmd, env, scratch, capsys):
    rc, err = _run(cmd, env, capsys)
    assert rc == 2 and len(err.strip().splitlines()) == 1, err
