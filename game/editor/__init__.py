"""The map editor's model: the scenario being edited, the commands that change it (each
``perform`` returns its inverse), the history of undo and redo, validation, statistics and the
balance views. Nothing here imports pygame: the editor screen (``game.ui.editor``) only turns
input into commands and draws this model."""
