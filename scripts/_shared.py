"""Where the scripts find the public corpora: ``../shared/data`` beside the repository,
or the folder named by ``NEWSML_SHARED_DATA`` (as the tests find them). The scripts
import this helper from beside them."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: The folder of the shared corpora (one folder per corpus).
SHARED_DATA = Path(os.environ.get("NEWSML_SHARED_DATA", REPO.parent / "shared" / "data"))
