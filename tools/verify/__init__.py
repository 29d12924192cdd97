"""Model verification: petheory's reading of every model type of the pinned transformers, compared with transformers'
own modules, and the pages written from that comparison.

    python -m tools.verify --only gpt_neox   # one model type, every case against transformers
    python -m tools.verify --write           # the full sweep (cached, resumable), the table, the families page
    python -m tools.verify.page --check      # is docs/guide/families.md the table's page?

- :mod:`tools.verify.sweep`: the cases of each model type and their comparison (the command above);
- :mod:`tools.verify.oracle`: what transformers' own modules do with a config, per layer (built on the meta device);
- :mod:`tools.verify.table`: the sweep's records -> ``petheory/data/verified_models.json`` and RESULTS.md's section;
- :mod:`tools.verify.flagships`: flagship configs as transformers' configuration classes build them;
- :mod:`tools.verify.page`: the families page (docs/guide/families.md) from the table and the flagships.

Run from the repository root; needs torch and transformers (the test extra). A tool, not the library: petheory reads
only the table it writes (:mod:`petheory.models.verified`).
"""
