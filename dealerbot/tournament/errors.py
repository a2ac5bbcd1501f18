"""The tournament core's exceptions; each message is fit to show the host or a player."""


class TournamentError(ValueError):
    """Base class: something asked of the tournament core that its rules do not allow."""


class SettingsError(TournamentError):
    """A tournament option outside its range; the message names the option and the range."""


class ClockError(TournamentError):
    """A level-clock change that cannot happen now (pause twice, level below 1, time backwards)."""


class StandingsError(TournamentError):
    """Busts, places or stacks that do not fit the players still in the tournament."""
