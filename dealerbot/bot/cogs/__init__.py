"""One cog per feature: play (``/stud``), wallet and leaderboard, admin (``/stud-admin``)."""
