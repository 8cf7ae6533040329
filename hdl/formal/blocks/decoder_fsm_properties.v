// decoder_fsm_properties: the contract of DecoderFsm
// (hdl/src/utf8_decoder/fsm.rs), profile rfc3629, for all time, by
// k-induction: `utf8hdl formal --block decoder_fsm`.
//
// Its input is the classifier's registers, which keep the classifier's
// datasheet (assumed, for a valid byte): `in_bound` implies
// `continuation`; `start_left` is a thermometer code of at most three
// octets (rfc3629's sequences are at most four long), 0 exactly when
// `start_word`, and 0 for a continuing octet or a byte with `last`; a
// continuing octet has six free bits. `advance` is free.
//
// A shadow follows the open sequence from the ports, as Unicode §3.9 and
// Annex R read it: the continuing octets it still owes (f_owed, a count),
// the free bits gathered so far (f_value) and the `outside_tuser` of the
// byte before; and from it the units that each byte must give. Then, on
// the ports, after each `advance` (and held until the next):
//   broken_sequence_is_one_error  `pre_error_valid` exactly when the byte
//                     broke an open sequence: it was valid, a sequence
//                     was open, and it is not a continuing octet within
//                     the bound; its `tuser` names the bound broken (the
//                     `outside_tuser` of the byte before) for a continuing
//                     octet, else truncated;
//   unit_of_each_byte `word_tvalid` exactly when the byte completes a
//                     sequence (`tuser` 0), ends its message inside one
//                     (truncated) or starts a unit that is whole at once
//                     (its `start_tuser`); `word_tlast` is the byte's
//                     `last`;
//   character_value   a character's `word_tdata` is its free bits in
//                     order, the profile's 21 bits;
//   gathers_free_bits while a sequence is open, `word_tdata` (the
//                     `gathered` register) holds its free bits so far.
// (These imply the datasheet's "`pre_error_valid` only after a byte that
// gave no word": a sequence is open only after a byte that gave none.)
// and, on the registers (bound by their exported names, which the runner
// checks exist):
//   bytes_left_is_owed    `bytes_left` is the thermometer code of the
//                         octets the open sequence still owes;
//   closed_after_last     after a byte with `last`, `bytes_left` is 0: no
//                         state crosses messages;
//   outside_of_byte_before  `outside_tuser` is the previous valid byte's.
`default_nettype none

module decoder_fsm_properties (clk, rst, advance, continuation, in_bound, free_bits, start_left,
                               start_word, start_tuser, outside_tuser, last, valid);
    input wire clk;
    input wire rst;
    input wire advance;
    input wire continuation;
    input wire in_bound;
    input wire [7:0] free_bits;
    input wire [4:0] start_left;
    input wire start_word;
    input wire [3:0] start_tuser;
    input wire [3:0] outside_tuser;
    input wire last;
    input wire valid;

    wire pre_error_valid;
    wire [3:0] pre_error_tuser;
    wire word_tvalid;
    wire [31:0] word_tdata;
    wire [3:0] word_tuser;
    wire word_tlast;
    wire [4:0] bytes_left;
    wire [3:0] outside_tuser_held;

    decoder_fsm dut (
        .clock(clk),
        .rst(rst),
        .advance(advance),
        .classified$continuation(continuation),
        .classified$in_bound(in_bound),
        .classified$free_bits(free_bits),
        .classified$start_left(start_left),
        .classified$start_word(start_word),
        .classified$start_tuser(start_tuser),
        .classified$outside_tuser(outside_tuser),
        .classified$last(last),
        .classified$valid(valid),
        .units$pre_error_valid(pre_error_valid),
        .units$pre_error_tuser(pre_error_tuser),
        .units$word_tvalid(word_tvalid),
        .units$word_tdata(word_tdata),
        .units$word_tuser(word_tuser),
        .units$word_tlast(word_tlast),
        // Internal, by their exported names.
        .bytes_left$q(bytes_left),
        .outside_tuser$q(outside_tuser_held)
    );

`ifdef FORMAL
    // The interface's codes (utf8_spec_model.v): bit 0 an error, the kind
    // in bits 3:1.
    localparam [3:0] F_TRUNCATED = {3'd3, 1'b1};
    localparam [31:0] F_VALUE_MASK = 32'h001F_FFFF;

    reg f_past_valid = 1'b0;
    always @(posedge clk) f_past_valid <= 1'b1;
    always @(*) if (!f_past_valid) assume (rst);

    wire f_thermometer = start_left == 5'b00000 || start_left == 5'b00001
        || start_left == 5'b00011 || start_left == 5'b00111;
    always @(*)
        if (valid) begin
            assume (!in_bound || continuation);
            assume (f_thermometer && start_word == (start_left == 5'd0));
            if (last || continuation) assume (start_left == 5'd0);
            if (continuation) assume (free_bits[7:6] == 2'b00);
        end

    // The open sequence: it owes at most three octets, which two bits
    // hold, so the count has no value that no run reaches.
    reg [1:0] f_owed = 2'd0;
    reg [31:0] f_value = 32'd0;
    reg [3:0] f_outside = 4'd0;
    wire f_open = f_owed != 2'd0;
    wire f_continues = valid && f_open && in_bound;
    wire [31:0] f_next_value = f_value << 6 | free_bits;
    wire [1:0] f_start_owed = start_left[0] + start_left[1] + start_left[2];

    // The units the last advance must have given; whether it took a valid
    // byte with `last`.
    reg f_pre_error = 1'b0;
    reg [3:0] f_pre_error_tuser;
    reg f_word = 1'b0;
    reg [3:0] f_word_tuser;
    reg [31:0] f_word_value;
    reg f_word_last;
    reg f_closed = 1'b0;
    // A reset clears the open sequence and the units, not `outside_tuser`.
    always @(posedge clk)
        if (advance && valid) f_outside <= outside_tuser;
    always @(posedge clk)
        if (rst) begin
            f_owed <= 2'd0;
            f_pre_error <= 1'b0;
            f_word <= 1'b0;
            f_closed <= 1'b0;
        end else if (advance) begin
            f_pre_error <= valid && f_open && !f_continues;
            f_pre_error_tuser <= continuation ? f_outside : F_TRUNCATED;
            f_word_last <= last;
            f_closed <= valid && last;
            if (f_continues) begin
                f_value <= f_next_value;
                f_owed <= (f_owed == 2'd1 || last) ? 2'd0 : f_owed - 2'd1;
                f_word <= f_owed == 2'd1 || last;
                f_word_tuser <= f_owed == 2'd1 ? 4'd0 : F_TRUNCATED;
                f_word_value <= f_next_value;
            end else begin
                f_word <= valid && start_word;
                f_word_tuser <= start_tuser;
                f_word_value <= free_bits;
                if (valid) begin
                    f_value <= free_bits;
                    f_owed <= f_start_owed;
                end
            end
        end

    always @(*)
        if (f_past_valid && !rst) begin
            broken_sequence_is_one_error: assert (pre_error_valid == f_pre_error
                && (!f_pre_error || pre_error_tuser == f_pre_error_tuser));
            unit_of_each_byte: assert (word_tvalid == f_word
                && (!f_word || (word_tuser == f_word_tuser && word_tlast == f_word_last)));
            if (f_word && f_word_tuser == 4'd0)
                character_value: assert (word_tdata == (f_word_value & F_VALUE_MASK));
            if (f_open)
                gathers_free_bits: assert (word_tdata == (f_value & F_VALUE_MASK));
            bytes_left_is_owed: assert (bytes_left == (5'b00001 << f_owed) - 5'd1);
            if (f_closed)
                closed_after_last: assert (bytes_left == 5'd0);
        end
    // A reset leaves it, so it holds in reset too.
    always @(*)
        if (f_past_valid)
            outside_of_byte_before: assert (outside_tuser_held == f_outside);
`endif
endmodule
