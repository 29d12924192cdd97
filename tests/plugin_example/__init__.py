"""An example petheory plugin package (see my_pes.py); importable as ``plugin_example.my_pes`` with tests/ on sys.path."""
