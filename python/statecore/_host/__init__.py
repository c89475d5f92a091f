"""The Python host layer's private modules: the system calls (files, locks, logs, the clock,
file watching) around the core, and the drivers that carry out what the core decides."""
