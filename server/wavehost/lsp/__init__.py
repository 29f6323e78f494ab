"""The language server edge: pygls server, the protocol models, and the method handlers."""
