"""Evidence: published context-extension results as validated rows, and what a recommendation may expect from them.

* :mod:`petheory.evidence.table`: the committed table (``petheory/data/extension_evidence.json``), its reader and
  the meaning of each row (extension ratio, baseline met or not);
* :mod:`petheory.evidence.expectation`: the one-line model of the table ``plan`` quotes (the median and range of
  the RULER score over the rows of a regime and method family with a comparable extension ratio, with its
  leave-one-source-out error), or "no evidence";
* :mod:`petheory.evidence.predictors`: each of ``plan``'s checks evaluated on the rows, and the pre-registered
  test of whether a failing check predicts a result below its baseline (the claims in
  ``proofs_check/claims/extension_evidence.py`` decide it).
"""
