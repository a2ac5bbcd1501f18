"""What comes in from Discord: the two command groups as extensions (``/stud`` with its
mixins, ``/stud-admin``), what they share (:mod:`.base`, :mod:`.options`), and every click
and form of the table message (:mod:`.clicks`)."""
