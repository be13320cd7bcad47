"""Flat keys of encoders' embeddings, heads and norms that only some masked-LM families read (issue #17), declared
apart from the Architecture's own (they follow its fields and the part kinds', as a part kind's keys do)."""

from __future__ import annotations


class EncoderKeys:
    """The annotated attributes are Architecture fields (HF config key names where a config spells them so)."""
    # A transform before the head: a hidden × hidden dense layer (biased by lm_head_transform_bias) and a norm
    # (ModernBERT's head, BERT's MLM prediction head).
    lm_head_transform: bool = False
    lm_head_transform_bias: bool = False
    # the width of the token, position and token-type tables and of the head when it differs from the layers'
    # (ELECTRA's factorized embeddings: a Linear to hidden_size after them); None: hidden_size
    embedding_size: int | None = None
    # buckets of one relative-position bias table (buckets × heads) for the whole encoder, after its layers (MPNet's
    # encoder.relative_attention_bias); None: none
    relative_attention_num_buckets: int | None = None
    type_vocab_size: int | None = None  # rows of a token-type (segment) table on the embeddings (BERT); None: none
    # rows of each of several token-type tables, one per column of token_type_ids (TAPAS's type_vocab_sizes: the
    # token_types path's "{t}" numbers them); (): none
    type_vocab_sizes: tuple[int, ...] = ()
    task_type_vocab_size: int | None = None  # rows of a second, task-type table (ERNIE's use_task_id); None: none
    # RoC-BERT's pronunciation and shape tables beside the token table (rows, width; None: none), and the width of
    # the concatenated embeddings its map_inputs_layer reads (hidden_size plus the enabled tables'; None: no layer)
    pronunciation_vocab_size: int | None = None
    pronunciation_embed_dim: int | None = None
    shape_vocab_size: int | None = None
    shape_embed_dim: int | None = None
    map_inputs_width: int | None = None
    mlp_down_bias: bool = False  # a bias on the dense FFN's down projection alone (GteMLP), where mlp_bias is off
    final_norm_bias: bool = True  # False: a LayerNorm final norm without its bias, the block norms keep theirs (ESMC)
    # the head transform's output, the head norm's and the head's width when it differs from the tables' (RemBERT's
    # output_embedding_size: cls.predictions.dense hidden -> it, the decoder it -> vocab); None: the tables' width
    output_embedding_size: int | None = None
    # a bottleneck before the head: hidden -> prediction_head_size -> hidden, no biases (UltraBERT's head.linear1 and
    # head.linear2); None: none
    prediction_head_size: int | None = None
    # rows of one hidden-wide relative-position table for the whole encoder, after its layers (DeBERTa-v2's
    # encoder.rel_embeddings: 2 × position_buckets, or 2 × max_relative_positions); None: none
    relative_embeddings_size: int | None = None
    # rows of each of four box-coordinate tables (x, y, h, w) beside the position table (LayoutLM); None: none
    max_2d_position_embeddings: int | None = None
    # a patch stem before the layers reading flattened 3 × patch² pixels (NeoMME's patch_embeddings: LayerNorm, up to
    # 2 × hidden, down to hidden); None: none
    patch_stem_size: int | None = None

    # the projection after the tables reads three tokens' rows at once (MobileBERT's embedding_transformation over
    # the 3-gram concatenation: 3 × the tables' width in)
    trigram_input: bool = False
    # the head's output columns past the tables' width, up to hidden_size, held in an unbiased Linear(vocab -> them)
    # of its own whose weight the head concatenates under the tied table's (MobileBERT's cls.predictions.dense,
    # hidden_size - embedding_size rows; the transform before the head is then hidden_size wide)
    lm_head_rest: bool = False

    # LUKE's entity vocabulary: rows of the entity table and of the entity head (entity_tables.py), their width;
    # None: none
    entity_vocab_size: int | None = None
    entity_emb_size: int | None = None

    # Perceiver's latent array (num_latents × hidden_size) read through a cross-attention from the tables (their
    # own width: embedding_size, no projection), and the decoder's cross-attention back to the positions, the head
    # the token table read in forward (perceiver_tables.py); None: none.  The input cross-attention's query/key
    # channels (None: the tables' width), value channels (None: its query/key channels) and its MLP's width in
    # hidden_size (None: 1, PerceiverConfig's cross_attention_widening_factor):
    num_latents: int | None = None
    latent_cross_qk_channels: int | None = None
    latent_cross_v_channels: int | None = None
    latent_cross_widening_factor: int | None = None

    # Reformer's axial position encodings (AxialPositionEmbeddings: one Parameter per axis, weights.{a} of shape 1
    # but axial_pos_shape[a] on axis a, then axial_pos_embds_dim[a]) in the position table's place; (): none
    axial_pos_shape: tuple[int, ...] = ()
    axial_pos_embds_dim: tuple[int, ...] = ()
    final_norm_width: int | None = None  # the final norm's width where not hidden_size (Reformer's 2 × hidden)
    # the layers in groups of this many, each group's own (ALBERT's AlbertLayerGroup: inner_group_num layers, named
    # by Naming.layer_groups); None: no groups
    inner_group_num: int | None = None
    # DeBERTa's legacy MLM head (cls.predictions: BERT's, its decoder tied to the token table); false: lm_predictions'
    # (a dense layer, a norm and a bias, the token table read in forward: no decoder of its own, nothing tied), named
    # by Naming.not_legacy
    legacy: bool = True
    # a Conv1d over the layers' output and its LayerNorm after the encoder's layers (DeBERTa-v2's ConvLayer,
    # DebertaV2Config's conv_kernel_size and conv_groups: a (hidden, hidden / groups, kernel) weight, a bias);
    # None: none
    encoder_conv_kernel_size: int | None = None
    encoder_conv_groups: int | None = None
    # an adaptive softmax in the head's place (XLM's asm: nn.AdaptiveLogSoftmaxWithLoss, parts/adaptive_softmax.py):
    # the config's asm_cutoffs ((): a Linear head), and its asm_div_value as written (an int's digits or a float's
    # repr: each cluster's projection width, hidden_size // asm_div_value ** (i + 1), is worked out as torch works it
    # out, in int or float arithmetic)
    asm_cutoffs: tuple[int, ...] = ()
    asm_div_value: str = ""

    zero_or_more = ("type_vocab_size", "relative_attention_num_buckets", "task_type_vocab_size",
                    "pronunciation_vocab_size", "shape_vocab_size", "pronunciation_embed_dim", "shape_embed_dim")
    positive_or_null = ("embedding_size", "output_embedding_size", "prediction_head_size", "relative_embeddings_size",
                        "max_2d_position_embeddings", "map_inputs_width", "patch_stem_size",
                        "entity_vocab_size", "entity_emb_size", "num_latents", "latent_cross_qk_channels",
                        "latent_cross_v_channels", "latent_cross_widening_factor", "final_norm_width",
                        "inner_group_num", "encoder_conv_kernel_size", "encoder_conv_groups")
