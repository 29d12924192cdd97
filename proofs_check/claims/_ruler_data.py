"""RULER's table of claimed and effective context lengths, and the published RoPE configs of its models (data only).

RULER (Hsieh, Sun, Kriman, Acharya, Rekesh, Jia, Zhang, Ginsburg; arXiv 2404.06654) publishes, in its
repository's README, a table of long-context models with their claimed context length and the effective
length RULER measured (the longest length at which the model still exceeds Llama-2-7B's score at 4K, 85.6).
``ROWS`` is that table as published at commit 227b38e6 of github.com/NVIDIA/RULER (2025-07-21, the last
README with the table; the README was replaced on 2025-10-09), every row, in its order: (model as RULER
names it, the Hugging Face id it links, claimed length, effective length), the length strings as printed.

``CONFIGS`` holds, for the rows whose ``config.json`` is public, the fields of that file that fix the
positions (the model's own names and values, nothing computed), with the address each was read from;
``EXCLUDED`` names every other row and why it is not compared. Lengths: "K" is 1024 tokens and "M" 1024^2
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

#: Hugging Face id -> {"config": the positional fields of its config.json, "source": where they were read}.
CONFIGS: dict = {}

#: Hugging Face id (or model name) -> why the row is not compared.
EXCLUDED: dict = {}
