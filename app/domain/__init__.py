"""Pure rules of Slate: slots, keys, fingerprints, parameters, states, handles. No I/O."""
