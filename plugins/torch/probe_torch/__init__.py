"""probe's torch device plugin (see plugins/torch/README.md)."""
