"""What the rules read and write as files: scenarios (``scenario_file`` the format,
``scenario`` its checks), saves (``savefile``) and the autosave journal (``journal``), the
battle log (``log``, ``logfields``), replays of a save (``replay``) or a log (``logreplay``),
the one JSON reader and atomic writer (``jsonfile``), and where the shipped folders are
(``shipped``)."""
