"""The command line's private modules (docs/cli.md): the facts the core asks for gathered, the
commands that go on, a store's facts."""
