"""Provider clients: the protocol the service talks to, and the MiniMax adapter."""
