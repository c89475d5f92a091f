"""The document stores' private modules: the file store, the rows a ``PostgresStore`` keeps,
its hive sessions and its watcher (the public API is ``statecore.store``)."""
