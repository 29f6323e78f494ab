"""Browser mode (`wavehost web`): the webview in a browser tab, with this process as its shell."""
