"""What a vault's settings demand of a call that hands out a secret: a REASON when
it forces one (``--require-reason``), a TICKETID when ticketing is enabled
(``--require-ticket``). Both come in Details."""

from vault_simulator.core.inputs import text
from vault_simulator.core.replies import Failure

TICKET_REQUIRED = "A ticket ID is required: ticketing is enabled"


def require_reason(ctx, message):
    """Details.REASON (stripped); fails with ``message`` when the vault forces a reason and none is given."""
    reason = text(ctx.details, "REASON").strip()
    if ctx.config.require_reason and not reason:
        raise Failure(message)
    return reason


def require_ticket(ctx):
    """Fail when ticketing is enabled and Details.TICKETID is missing."""
    if ctx.config.require_ticket and not text(ctx.details, "TICKETID").strip():
        raise Failure(TICKET_REQUIRED)
