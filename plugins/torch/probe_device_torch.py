#!/usr/bin/env python3
"""probe's torch device plugin: started by probe, never by hand.

probe runs it as the built-in device "torch" (probe.toml:
[plugins.device.torch]) from a copy of its source in probe's cache.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from probe_torch.main import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
