"""hadron.CompileError, defined here so that it exists without the builder:
hadron._builder raises this class, and a process that never imports the
builder can still catch it."""


class CompileError(Exception):
    """A kernel that does not trace or compile; the message starts with the
    kernel's ``file:line:col: error:``."""
