"""PySide6 widgets, thin over the core. `referee_app.ui.MainWindow` is the window (the contract
names it); it is imported on first use, so importing a small ui module stays cheap."""


def __getattr__(name):
    if name == "MainWindow":
        from .main_window import MainWindow

        return MainWindow
    raise AttributeError(name)
