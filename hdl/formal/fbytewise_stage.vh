// fbytewise_stage.vh: the encoders' classifying stage, whose word is a
// BytewiseRegister named `word` (hdl/src/stream/bytewise_register.rs)
// beside the stage's own `valid`. It names the connections that bind the
// flag and the word's four copies of it by their exported names
// (F_BYTEWISE_STAGE_INTERNALS: the owner's F_DUT_INTERNALS, which the
// instance in faxis_core_harness.vh takes, includes them, so include this
// first), and states, under `COPIES`, the invariant the block's proof
// leaves to its owner: every copy equals the flag. It binds the stage's
// enable too, `moves`, a flop figured a cycle ahead; the owner states
// what it stands for (`!valid` or what takes the stage's word), as that
// differs between them.
    wire f_stage_valid, f_stage_moves;
    wire [3:0] f_byte_valid;
`define F_BYTEWISE_STAGE_INTERNALS \
        , .valid$q(f_stage_valid) \
        , .word$valid$0$q(f_byte_valid[0]) \
        , .word$valid$1$q(f_byte_valid[1]) \
        , .word$valid$2$q(f_byte_valid[2]) \
        , .word$valid$3$q(f_byte_valid[3]) \
        , .moves$q(f_stage_moves)
`ifdef FORMAL
`ifdef COPIES
    always @(*) copies_equal_valid: assert (f_byte_valid == {4{f_stage_valid}});
`endif
`endif
