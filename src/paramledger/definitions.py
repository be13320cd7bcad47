"""What the inventory's derived counts mean, in words the views print beside them (inventory.Inventory.non_embedding
and active compute them)."""

NON_EMBEDDING_DEFINITIONS = {
    "hf": "Hugging Face num_parameters(exclude_embeddings=True): the total minus every "
    "nn.Embedding weight (token, learned position and token-type tables, a tower's position table); an untied "
    "LM head stays in",
    "nanogpt": "nanoGPT get_num_params(non_embedding=True): the total minus the position "
    "table only; the token table stays in because the tied head uses it",
    "kaplan": "Kaplan et al. (2020), N: the total minus the token table, the position (and token-type) table "
    "and an untied output projection (every vocabulary- or position-sized matrix)",
}

ACTIVE_DEFINITION = (
    "parameters a single token's forward pass reads: every dense tensor, the router, the "
    "shared experts and num_experts_per_tok of the routed experts; the token table counts "
    "in full (one row is read, but the table is one tensor)"
)
