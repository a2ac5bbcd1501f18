"""The thin Discord shell: slash commands and buttons in, table messages and DMs out.

No rules live here. Interactions become calls on the table service
(:mod:`dealerbot.tables`); the service's events become the table message
(:mod:`.table_messages`), direct messages (:mod:`.dm`) and answers (:mod:`.render`).
"""
