"""Batch analysis of any game that declares analysis hooks (``forest analyse --game NAME``).

The runner knows games only through their :class:`~solver.spec.AnalysisHooks`:

- :mod:`.sources`: the instances of a batch (rolled or files), streamed;
- :mod:`.journal`: the journal of finished rows and the output's lock;
- :mod:`.backends`: this process, local worker processes (loky), Dask; :mod:`.worker`: what a
  worker runs;
- :mod:`.results`: the columns and the Parquet/CSV files; :mod:`.batch`: the run itself;
- :mod:`.report`, :mod:`.curate`: the markdown report and the selection and saving of instances;
- :mod:`.cli_analyse`: the ``forest analyse`` command.

Nothing here imports a game package: each game's analysis (the dog's is
:mod:`solver.games.dog.analysis`) lives with the game.
"""
