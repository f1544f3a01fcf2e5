"""Hub v2, the protocol of Scan and the draughts GUIs (PROTOCOL.md section 10).

* :mod:`protocol.hub.wire`: the line syntax, positions, move texts, numbering, info lines;
* :mod:`protocol.hub.server`: our engine in Hub mode (``hub`` as the first line);
* :mod:`protocol.hub.client`: :class:`~protocol.hub.client.HubEngine`, driving any Hub engine
  with the reference client's interface.

The wire helpers are re-exported here (``from protocol.hub import format_hub_line``).
"""
from protocol.hub.wire import (NUMBERING_VALUES, VARIANT_VALUES, HubSyntaxError, flip_move_text,
                               flip_square, format_hub_info, format_hub_line, hub_pos, hub_score,
                               hub_value, parse_hub_line, parse_hub_move_text,
                               position_from_hub_pos, uses_white_side_numbering)

__all__ = ["HubSyntaxError", "parse_hub_line", "format_hub_line", "hub_value", "hub_pos",
           "position_from_hub_pos", "parse_hub_move_text", "format_hub_info", "hub_score",
           "VARIANT_VALUES", "NUMBERING_VALUES", "flip_square", "flip_move_text",
           "uses_white_side_numbering"]
