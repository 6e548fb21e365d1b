"""Sub-command module (see companion/cli.py)."""


def register(sub):  # noqa: ANN001, ANN201
    pass
