"""``statecore.specify``: the specify workflow's ``specs/<feature>/.workflow/index.md``
(docs/specify.md): the markdown read into text blocks and tables and rendered back byte for
byte, generated in ``statecore._generated.specify``."""

from statecore._generated.specify import *  # noqa: F403
from statecore._generated.specify import __all__ as __all__
