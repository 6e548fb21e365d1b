"""Training tools (the optional `train` extra): the band network's material and training."""
