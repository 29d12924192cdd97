"""RULER's table of claimed and effective context lengths, and the published RoPE configs of its models (data only).

RULER (Hsieh, Sun, Kriman, Acharya, Rekesh, Jia, Zhang, Ginsburg; arXiv 2404.06654) publishes, in its
repository's README, a table of long-context models with their claimed context length and the effective
length RULER measured (the longest length at which the model still exceeds Llama-2-7B's score at 4K, 85.6).
``ROWS`` is that table as published at commit 227b38e6 of github.com/NVIDIA/RULER (2025-07-21, the last
README with the table; the README was replaced on 2025-10-09), every row, in its order: (model as RULER
names it, the Hugging Face id it links, claimed length, effective length), the length strings as printed.

``CONFIGS`` holds, for the rows whose ``config.json`` is public, the fields of that file that fix the
positions (the model's own names and values, nothing computed), with the address each was read from, or, marked
``recalled``, the published values as known without a stored copy to read (issue 57: Mixtral-8x7B, Llama-3.1-70B,
Mistral-Large, Qwen3, and three Llama 2 models with linear position interpolation);
``EXCLUDED`` names every other row and why it is not compared. Lengths: "K" is 1024 tokens and "M" :math:`1024^2`
(RULER's 4K..128K columns are powers of two); "200K" is read the same way.
"""

from __future__ import annotations

SOURCE = {
    "table": "NVIDIA/RULER README.md, the results table",
    "url": "https://github.com/NVIDIA/RULER/blob/227b38e6ca0863522449d53a922b75d7a1d30404/README.md",
    "commit": "227b38e6ca0863522449d53a922b75d7a1d30404",
    "date": "2025-07-21",
    "paper": "Hsieh et al. 2024, RULER: What's the Real Context Size of Your Long-Context Language Models? arXiv 2404.06654",
    "threshold": "effective length: the longest length whose score exceeds Llama-2-7B's at 4K (85.6)",
}

#: (model, Hugging Face id or None, claimed, effective), as printed.
ROWS = (
    ("Llama2 (7B)", "meta-llama/Llama-2-7b-chat-hf", "4K", ""),
    ("Jamba-1.5-large* (94B/398B)", "ai21labs/AI21-Jamba-1.5-Large", "256k", ">128k"),
    ("Gemini-1.5-pro", None, "1M", ">128K"),
    ("Qwen2.5-14B-Instruct-1M* (14B)", "Qwen/Qwen2.5-14B-Instruct-1m", "1M", ">128K"),
    ("Qwen3-235B-A22B* (235B)", "Qwen/Qwen3-235B-A22B", "128K", ">128K"),
    ("Qwen3-14B* (14B)", "Qwen/Qwen3-14B", "128K", ">128K"),
    ("Jamba-1.5-mini (12B/52B)", "ai21labs/AI21-Jamba-1.5-Mini", "256K", ">128K"),
    ("Qwen3-32B* (32B)", "Qwen/Qwen3-32B", "128K", ">128K"),
    ("EXAONE-4.0-32B* (32B)", "LGAI-EXAONE/EXAONE-4.0-32B", "128K", ">128K"),
    ("Qwen2.5-7B-Instruct-1M* (7B)", "Qwen/Qwen2.5-7B-Instruct-1M", "1M", ">128K"),
    ("Qwen3-30B-A3B* (30B)", "Qwen/Qwen3-30B-A3B", "128K", "64K"),
    ("GPT-4-1106-preview", None, "128K", "64K"),
    ("Llama3.1 (70B)", "meta-llama/Meta-Llama-3.1-70B-Instruct", "128K", "64K"),
    ("Qwen3-8B* (8B)", "Qwen/Qwen3-8B", "128K", "64K"),
    ("Mistral-Large-2411 (123B)", "mistralai/Mistral-Large-Instruct-2411", "128K", "64K"),
    ("Command-R-plus-0824 (104B)", "CohereForAI/c4ai-command-r-plus-08-2024", "128K", "32K"),
    ("Qwen2 (72B)", "Qwen/Qwen2-72B-Instruct", "128K", "32K"),
    ("Command-R-plus (104B)", "CohereForAI/c4ai-command-r-plus", "128K", "32K"),
    ("Command-R-0824 (32B)", "CohereForAI/c4ai-command-r-08-2024", "128K", "64K"),
    ("GLM4 (9B)", "THUDM/glm-4-9b-chat-1m", "1M", "64K"),
    ("Llama3.1 (8B)", "meta-llama/Meta-Llama-3.1-8B-Instruct", "128K", "32K"),
    ("ProLong (8B)", "princeton-nlp/Llama-3-8B-ProLong-512k-Instruct", "512K", "32K"),
    ("Command-R (35B)", "CohereForAI/c4ai-command-r-v01", "128K", "32K"),
    ("MegaBeam-Mistral (7B)", "aws-prototyping/MegaBeam-Mistral-7B-512k", "512K", "32K"),
    ("Mistral-Large-2407 (123B)", "mistralai/Mistral-Large-Instruct-2407", "128K", "32K"),
    ("GradientAI/Llama3 (70B)", "gradientai/Llama-3-70B-Instruct-Gradient-1048k", "1M", "16K"),
    ("Mixtral-8x22B (39B/141B)", "mistralai/Mixtral-8x22B-instruct-v0.1", "64K", "32K"),
    ("Yi (34B)", "01-ai/Yi-34B-200K", "200K", "32K"),
    ("Qwen3-4B* (4B)", "Qwen/Qwen3-4B", "128K", "64K"),
    ("EXAONE-4.0-1.2B* (1.2B)", "LGAI-EXAONE/EXAONE-4.0-1.2B", "64K", "32K"),
    ("Phi3-mini (3.8B)", "microsoft/Phi-3-mini-128K-instruct", "128K", "32K"),
    ("Phi3-medium (14B)", "microsoft/Phi-3-medium-128K-instruct", "128K", "32K"),
    ("Mixtral-8x7B (12.9B/46.7B)", "mistralai/Mixtral-8x7B-instruct-v0.1", "32K", "32K"),
    ("GradientAI/Llama3 (8B)", "gradientai/Llama-3-8B-Instruct-Gradient-1048k", "1M", "16K"),
    ("FILM-7B* (7B)", None, "32K", "32K"),
    ("InternLM2.5 (7B)", "internlm/internlm2_5-7b-chat-1m", "1M", "4K"),
    ("Mistral (7B)", "mistralai/Mistral-7B-instruct-v0.2", "32K", "16K"),
    ("Mistral-Nemo", "mistralai/Mistral-Nemo-Instruct-2407", "128K", "16K"),
    ("GLM3 (6B)", "THUDM/chatglm3-6b-128K", "128K", "4K"),
    ("LWM (7B)", "LargeWorldModel/LWM-Text-Chat-1M", "1M", "<4K"),
    ("DBRX (36B/132B)", "databricKs/dbrx-instruct", "32K", "8K"),
    ("Qwen1.5 (72B)", "Qwen/Qwen1.5-72B-Chat", "32K", "8K"),
    ("Together (7B)", "togethercomputer/Llama-2-7B-32K-instruct", "32K", "4K"),
    ("LongChat (7B)", "lmsys/longchat-7b-v1.5-32K", "32K", "<4K"),
    ("LongAlpaca (13B)", "YuKang/LongAlpaca-13B", "32K", "<4K"),
)

_HF = "https://huggingface.co/"

#: Hugging Face id -> {"config": the positional fields of its config.json, "source": where they were read}.
#: Which rows have one here was settled by which configs could be read and sourced, before any was compared.
CONFIGS: dict = {
    "meta-llama/Meta-Llama-3.1-8B-Instruct": {
        "config": {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
                   "max_position_embeddings": 131072, "rope_theta": 500000.0,
                   "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                    "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
        "source": "tests/data/hf_configs/llama3_1_8b.json (meta-llama/Llama-3.1-8B's config.json); the Instruct model's "
                  "rope_scaling, rope_theta and max_position_embeddings are the same (AutoConfig of its ModelScope mirror "
                  "LLM-Research/Meta-Llama-3.1-8B-Instruct, printed in a public script)"},
    "mistralai/Mistral-Nemo-Instruct-2407": {
        "config": {"model_type": "mistral", "head_dim": 128, "hidden_size": 5120, "num_hidden_layers": 40, "num_attention_heads": 32,
                   "num_key_value_heads": 8, "max_position_embeddings": 128000, "rope_theta": 1000000.0,
                   "sliding_window": None},
        "source": "mistralai/Mistral-Nemo-Base-2407's config.json as quoted in github.com/kevinstephano/thunder_model_blocks "
                  "thunder_model_blocks/mistral/mistral_config.py (a23dd8fe); the Instruct model card (copied in "
                  "github.com/sassoftware/sas-agentic-ai-accelerator LLM-Definitions/mistral_nemo/Model-Card.md) gives the "
                  "same head dim 128, 32 heads, 8 kv-heads and 'Rotary embeddings (theta = 1M)'"},
    "mistralai/Mistral-7B-instruct-v0.2": {
        "config": {"model_type": "mistral", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
                   "max_position_embeddings": 32768, "rope_theta": 1000000.0, "sliding_window": None},
        "source": _HF + "mlx-community/Mistral-7B-Instruct-v0.2-4-bit/commit/625bae0744b0d21a0ad593612afda46c4ef96a54 "
                  "(its params: n_heads 32, n_kv_heads 8, rope_theta 1e6) and github.com/edadaltocg/mistral-src-finetune "
                  "finetune/config.py ('Mistral-7B-v0.2-Instruct': dim 4096, n_layers 32, head_dim 128, rope_theta 1e6); 32k context, "
                  "no sliding window in v0.2"},
    "mistralai/Mixtral-8x22B-instruct-v0.1": {
        "config": {"model_type": "mixtral", "hidden_size": 6144, "num_hidden_layers": 56, "num_attention_heads": 48, "num_key_value_heads": 8,
                   "max_position_embeddings": 65536, "rope_theta": 1000000.0, "sliding_window": None},
        "source": _HF + "nithiyn/Mixtral-8x22B-Instruct-neuron/blob/main/config.json (checkpoint "
                  "mistralai/Mixtral-8x22B-Instruct-v0.1, revision a46959a1)"},
    "01-ai/Yi-34B-200K": {
        "config": {"model_type": "llama", "hidden_size": 7168, "num_hidden_layers": 60, "num_attention_heads": 56, "num_key_value_heads": 8,
                   "max_position_embeddings": 200000, "rope_theta": 5000000.0},
        "source": _HF + "01-ai/Yi-34B-200K/blob/837927e48ac2a4b31e3f0fd0313c8749fc9c03b8/config.json (model_type 'Yi', "
                  "Llama's architecture; later copies name it 'llama')"},
    "LargeWorldModel/LWM-Text-Chat-1M": {
        "config": {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
                   "max_position_embeddings": 1048576, "rope_theta": 50000000.0},
        "source": _HF + "mergekit-community/llama-world/blob/main/config.json (_name_or_path "
                  "LargeWorldModel/LWM-Text-Chat-1M)"},
    "Qwen/Qwen2-72B-Instruct": {
        "config": {"model_type": "qwen2", "hidden_size": 8192, "num_hidden_layers": 80, "num_attention_heads": 64, "num_key_value_heads": 8,
                   "max_position_embeddings": 32768, "rope_theta": 1000000.0, "sliding_window": 131072,
                   "use_sliding_window": False},
        "source": _HF + "Qwen/Qwen2-72B-Instruct/blob/7c7b4195787f74b15d14d70a52653ca5cf0c4d75/config.json (no "
                  "rope_scaling: the model card's YaRN block for long inputs is not in the file)"},
    "Qwen/Qwen1.5-72B-Chat": {
        "config": {"model_type": "qwen2", "hidden_size": 8192, "num_hidden_layers": 80, "num_attention_heads": 64, "num_key_value_heads": 64,
                   "max_position_embeddings": 32768, "rope_theta": 1000000.0, "sliding_window": 4096,
                   "use_sliding_window": False},
        "source": _HF + "Qwen/Qwen1.5-72B-Chat/blob/3eebb4deedb8c952318504d9afc9b335fcb7bc84/config.json"},
}

#: Issue 57: the rows whose config is public but was not stored where it could be read here, rebuilt from the
#: published config.json files as the maintainers know them (the fields that fix the positions only). Each says so
#: in its source: these are recalled, not read, and a test pins every field so that a correction is one edit.
_RECALLED = ("recalled from the published config.json of {hf} (not read here: no stored copy was found); "
             "positional fields only{extra}")
_QWEN3_YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
_QWEN3_NOTE = (", plus the model card's YaRN block (factor 4 over 32,768 positions), which the card prescribes for "
               "inputs beyond 32,768 tokens and which RULER's Qwen3 rows (reported by the Qwen3 report, arXiv "
               "2505.09388, at 64K and 128K) need; without it the file's frequencies are plain base 1e6")


def _qwen3(model_type: str, hidden: int, layers: int, heads: int, kv: int) -> dict:
    return {"model_type": model_type, "hidden_size": hidden, "num_hidden_layers": layers, "num_attention_heads": heads,
            "num_key_value_heads": kv, "head_dim": 128, "max_position_embeddings": 40960, "rope_theta": 1000000.0,
            "rope_scaling": dict(_QWEN3_YARN), "sliding_window": None, "use_sliding_window": False}


def _linear_pi_llama2(hidden: int, layers: int, heads: int) -> dict:
    return {"model_type": "llama", "hidden_size": hidden, "num_hidden_layers": layers, "num_attention_heads": heads,
            "num_key_value_heads": heads, "max_position_embeddings": 32768, "rope_theta": 10000.0,
            "rope_scaling": {"type": "linear", "factor": 8.0}}


for _hf, _cfg, _extra in (
    ("mistralai/Mixtral-8x7B-instruct-v0.1",
     {"model_type": "mixtral", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
      "num_key_value_heads": 8, "max_position_embeddings": 32768, "rope_theta": 1000000.0, "sliding_window": None}, ""),
    ("meta-llama/Meta-Llama-3.1-70B-Instruct",
     {"model_type": "llama", "hidden_size": 8192, "num_hidden_layers": 80, "num_attention_heads": 64,
      "num_key_value_heads": 8, "max_position_embeddings": 131072, "rope_theta": 500000.0,
      "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                       "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
     " (the Llama 3.1 rope_scaling block, the same as the 8B's)"),
    ("mistralai/Mistral-Large-Instruct-2407",
     {"model_type": "mistral", "hidden_size": 12288, "num_hidden_layers": 88, "num_attention_heads": 96,
      "num_key_value_heads": 8, "head_dim": 128, "max_position_embeddings": 131072, "rope_theta": 1000000.0,
      "sliding_window": None}, ""),
    ("mistralai/Mistral-Large-Instruct-2411",
     {"model_type": "mistral", "hidden_size": 12288, "num_hidden_layers": 88, "num_attention_heads": 96,
      "num_key_value_heads": 8, "head_dim": 128, "max_position_embeddings": 131072, "rope_theta": 1000000.0,
      "sliding_window": None}, " (the same architecture as 2407)"),
    ("Qwen/Qwen3-4B", _qwen3("qwen3", 2560, 36, 32, 8), _QWEN3_NOTE),
    ("Qwen/Qwen3-8B", _qwen3("qwen3", 4096, 36, 32, 8), _QWEN3_NOTE),
    ("Qwen/Qwen3-14B", _qwen3("qwen3", 5120, 40, 40, 8), _QWEN3_NOTE),
    ("Qwen/Qwen3-32B", _qwen3("qwen3", 5120, 64, 64, 8), _QWEN3_NOTE),
    ("Qwen/Qwen3-30B-A3B", _qwen3("qwen3_moe", 2048, 48, 32, 4), _QWEN3_NOTE),
    ("Qwen/Qwen3-235B-A22B", _qwen3("qwen3_moe", 4096, 94, 64, 4), _QWEN3_NOTE),
    ("togethercomputer/Llama-2-7B-32K-instruct", _linear_pi_llama2(4096, 32, 32),
     " (Llama 2 7B with position interpolation, linear factor 8)"),
    ("lmsys/longchat-7b-v1.5-32K", _linear_pi_llama2(4096, 32, 32),
     " (Llama 2 7B with position interpolation, linear factor 8)"),
    ("YuKang/LongAlpaca-13B", _linear_pi_llama2(5120, 40, 40),
     " (Llama 2 13B with position interpolation, linear factor 8)"),
):
    CONFIGS[_hf] = {"config": _cfg, "source": _RECALLED.format(hf=_HF + _hf, extra=_extra), "recalled": True}

_NOT_READ = "config.json not read and sourced here (the comparison covers the rows above only)"
#: Hugging Face id (or model name) -> why the row is not compared.
EXCLUDED: dict = {
    "meta-llama/Llama-2-7b-chat-hf": "the table's threshold row: no effective length",
    "ai21labs/AI21-Jamba-1.5-Large": "Jamba's attention layers carry no positional encoding (Mamba layers give order)",
    "ai21labs/AI21-Jamba-1.5-Mini": "Jamba's attention layers carry no positional encoding (Mamba layers give order)",
    "Gemini-1.5-pro": "no public config",
    "GPT-4-1106-preview": "no public config",
    "FILM-7B* (7B)": "no Hugging Face config linked; evaluated with YaRN beyond 32K (RULER's note)",
    "Qwen/Qwen2.5-14B-Instruct-1m": "Dual Chunk Attention remaps relative positions beyond its chunks: B_m of the plain "
                                    "frequencies is not what the model computes",
    "Qwen/Qwen2.5-7B-Instruct-1M": "Dual Chunk Attention remaps relative positions beyond its chunks",
    "CohereForAI/c4ai-command-r-v01": "model_type 'cohere' is not a type petheory resolves",
    "CohereForAI/c4ai-command-r-08-2024": "model_type 'cohere' is not a type petheory resolves",
    "CohereForAI/c4ai-command-r-plus": "model_type 'cohere' is not a type petheory resolves",
    "CohereForAI/c4ai-command-r-plus-08-2024": "model_type 'cohere' is not a type petheory resolves",
    "THUDM/glm-4-9b-chat-1m": "ChatGLM's remote-code config (rope_ratio, seq_length) has no transformers reading here",
    "THUDM/chatglm3-6b-128K": "ChatGLM's remote-code config (rope_ratio, seq_length) has no transformers reading here",
    "gradientai/Llama-3-8B-Instruct-Gradient-1048k": "its config's revisions disagree (rope_theta 2.80e9 in snapshot "
                                                     "909ddf7 as copied, 3.58e9 in later copies) and RULER does not say "
                                                     "which it evaluated",
    "gradientai/Llama-3-70B-Instruct-Gradient-1048k": "revisions of the Gradient configs disagree (as for the 8B)",
    "microsoft/Phi-3-mini-128K-instruct": "its LongRoPE factor lists were not read (tests/data/hf_configs ships "
                                          "Phi-3.5-mini's)",
    "microsoft/Phi-3-medium-128K-instruct": "its LongRoPE factor lists (48 short, 48 long) were not read",
    "LGAI-EXAONE/EXAONE-4.0-32B": "its global-attention layers carry no RoPE (hybrid local RoPE / global NoPE "
                                  "attention), so Men's B_m of a full-attention rotary layer does not exist",
    "LGAI-EXAONE/EXAONE-4.0-1.2B": "model_type 'exaone4': its layer layout was neither read nor recalled reliably",
}
for _name, _hf, _c, _e in ROWS:
    if (_hf or _name) not in CONFIGS and (_hf or _name) not in EXCLUDED:
        EXCLUDED[_hf or _name] = _NOT_READ
