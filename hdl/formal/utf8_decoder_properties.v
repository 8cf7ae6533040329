// utf8_decoder_properties: the formal properties of the 1-lane UTF-8 decoder,
// for its exported Verilog: the module UTF8_DUT (utf8_decoder, or
// utf8_decoder_iso10646 with UTF8_ISO10646 defined), whose latency is
// F_LATENCY; `utf8hdl formal` defines both from the core's Rust description
// (sim/src/cores/utf8_decoder.rs). ZipCPU style: everything under `ifdef
// FORMAL, one property group per check of the core's formal plan.
//
// Every property but P5_UNITS reads the core's ports only, never its
// internal signals, so those proofs survive any change inside the core that
// keeps its contract; P5_UNITS's invariants name its registers, which the
// runner checks exist.
//
//   P1, P2        the AXI4-Stream rules, shared by every core
//                 (faxis_stream_properties.vh): P1 the producer keeps them
//                 (assumed), P2 m_axis keeps them: a stalled word holds
//                 TVALID, TDATA, TUSER and TLAST.
//   P3  `P3       one byte per clock: when m_axis_tready has been high for
//                 the last F_LATENCY cycles, s_axis_tready is high.
//   P4  `P4       no unflagged error: a word with TUSER[0] = 0 is neither a
//                 surrogate nor above the profile's maximum and has
//                 TUSER[3:1] = 0; a word with TUSER[0] = 1 is U+FFFD with a
//                 kind code of the profile (1-6; 1-5 for iso10646, which has
//                 no out_of_range).
//   P5  `P5       framing: m_axis TLAST handshakes never outnumber s_axis
//                 TLAST handshakes, and catch up once the input has been
//                 quiet (no byte, m_axis_tready high) for F_DRAIN cycles
//                 (faxis_core_harness.vh).
//       `P5_UNITS a message never yields more units than it has bytes;
//                 proven by k-induction with invariants on the core's
//                 registers, the only properties here that read them.
//   P6  `P6       equality with utf8_spec_model: the k-th unit on m_axis
//                 (anyconst k) is the model's k-th unit, TDATA, TUSER and
//                 TLAST, and after F_DRAIN quiet cycles every unit of the
//                 model is out. Bounded (BMC).
//   P7  `P7       covers: each error kind, the two-word cycle of C2 41, a
//                 stall that reaches s_axis, a reset in the middle of a
//                 sequence followed by a character.
// `ALWAYS_READY (a task option): the consumer never stalls
// (faxis_stream_properties.vh).
`default_nettype none

`ifdef P6
`define SPEC_MODEL
`endif
`ifdef P7
`define SPEC_MODEL
`endif

module utf8_decoder_properties (clk, rst, s_axis_tdata, s_axis_tvalid, s_axis_tlast, m_axis_tready);
    // Bytes in; words out, with an error flag and kind. A byte accepted in
    // cycle t leaves in cycle t + F_LATENCY (hdl/src/utf8_decoder/mod.rs, Core::LATENCY).
    input wire [7:0] s_axis_tdata;
    wire [31:0] m_axis_tdata;
    wire [3:0] m_axis_tuser;
    // It holds nothing past its latency.
    localparam F_DRAIN_PAST_LATENCY = 0;
    // At most this many bytes, and so messages, are inside the core.
    localparam F_MAX_IN_FLIGHT = 8;

    // P5_UNITS's induction reads the core's registers, bound by their
    // exported names: every place where a unit or a byte of a message can
    // be, as (valid, last), and what decides how many units a byte gives.
    wire f_out_valid, f_out_last, f_delayed_valid, f_delayed_last;
    wire f_pre_error_valid, f_word_valid, f_word_last;
    wire [4:0] f_bytes_left;
    wire f_classified_valid, f_classified_last, f_classified_word;
    wire [4:0] f_classified_left;
    wire f_read_valid, f_read_last, f_taken_valid, f_taken_last;
    wire f_buffered_valid, f_buffered_last, f_skid_ready;
`define F_DUT_INTERNALS \
        , .output_register$tvalid$q(f_out_valid) \
        , .output_register$tlast$q(f_out_last) \
        , .output_register$delayed_tvalid$q(f_delayed_valid) \
        , .output_register$delayed_tlast$q(f_delayed_last) \
        , .decoder$pre_error_valid$q(f_pre_error_valid) \
        , .decoder$word_tvalid$q(f_word_valid) \
        , .decoder$word_tlast$q(f_word_last) \
        , .decoder$bytes_left$q(f_bytes_left) \
        , .classifier$valid$q(f_classified_valid) \
        , .classifier$last$q(f_classified_last) \
        , .classifier$start_word$q(f_classified_word) \
        , .classifier$start_left$q(f_classified_left) \
        , .classifier$read_valid$q(f_read_valid) \
        , .classifier$read_last$q(f_read_last) \
        , .classifier$taken_tvalid$q(f_taken_valid) \
        , .classifier$taken_tlast$q(f_taken_last) \
        , .skid_buffer$buffered_valid$q(f_buffered_valid) \
        , .skid_buffer$buffered_tlast$q(f_buffered_last) \
        , .skid_buffer$ready$q(f_skid_ready)
`include "faxis_core_harness.vh"

`ifdef FORMAL
    // ---- P3: one byte per clock ----
`ifdef P3
    always @(*) if (f_full_rate) p3_one_byte_per_clock: assert (s_axis_tready);
`endif

    // ---- P4: no unflagged error ----
`ifdef P4
    localparam [31:0] F_MAX_VALUE = ISO10646 ? 32'h7FFF_FFFF : 32'h0010_FFFF;
    localparam [2:0] F_MAX_KIND = ISO10646 ? 3'd5 : 3'd6;
    wire [2:0] f_kind = m_axis_tuser[3:1];
    always @(*)
        if (m_axis_tvalid) begin
            if (!m_axis_tuser[0]) begin
                p4_character_has_no_kind: assert (f_kind == 0);
                p4_character_not_surrogate: assert (m_axis_tdata < 32'hD800 || m_axis_tdata > 32'hDFFF);
                p4_character_in_range: assert (m_axis_tdata <= F_MAX_VALUE);
            end else begin
                p4_error_is_replacement: assert (m_axis_tdata == 32'hFFFD);
                p4_error_kind_known: assert (f_kind >= 1 && f_kind <= F_MAX_KIND);
            end
        end
`endif

    // ---- P5: units per message (the framing: faxis_core_harness.vh) ----
`ifdef P5_UNITS
    // Units <= bytes, per message (faxis_units_tracker.vh): one byte in
    // per s_axis handshake, one unit out per m_axis handshake.
    localparam F_CREDIT_BITS = 5;
    localparam F_MESSAGES_BITS = 4;
    wire f_bytes_in = 1'b1;
    wire f_units_out = 1'b1;
`include "faxis_units_tracker.vh"

    // What makes the check inductive (k-induction, smtbmc): the places, in
    // the order their contents leave, each holding at most one unit to
    // come: the m_axis register, the word waiting behind it and the
    // U+FFFD of a broken sequence (never both at once), the FSM's word,
    // its open sequence (one unit still to come, whatever its length),
    // the classifier's three stages and the skid buffer. A place belongs
    // to the tracked message when exactly f_messages_before TLASTs wait
    // ahead of it.
    localparam F_PLACES = 9;
    wire f_sequence_open = f_bytes_left[0];
    wire [F_PLACES-1:0] f_holds = {f_buffered_valid, f_taken_valid, f_read_valid,
        f_classified_valid, f_sequence_open, f_word_valid, f_pre_error_valid, f_delayed_valid,
        f_out_valid};
    wire [F_PLACES-1:0] f_ends = f_holds & {f_buffered_last, f_taken_last, f_read_last,
        f_classified_last, 1'b0, f_word_last, 1'b0, f_delayed_last, f_out_last};
    // TLASTs ahead of each place (4 bits each), the units due from the
    // tracked message's places, and whether something inside belongs to a
    // message whose TLAST has not gone in.
    reg [4*(F_PLACES+1)-1:0] f_tlasts_ahead;
    reg [3:0] f_units_due;
    reg f_message_open;
    integer f_place;
    always @(*) begin
        f_tlasts_ahead = 0;
        f_units_due = 0;
        for (f_place = 0; f_place < F_PLACES; f_place = f_place + 1) begin
            f_tlasts_ahead[4*(f_place+1)+:4] = f_tlasts_ahead[4*f_place+:4] + f_ends[f_place];
            if (f_holds[f_place] && f_tlasts_ahead[4*f_place+:4] == f_messages_before)
                f_units_due = f_units_due + 1;
        end
        f_message_open = 1'b0;
        for (f_place = 0; f_place < F_PLACES; f_place = f_place + 1)
            if (f_holds[f_place] && f_tlasts_ahead[4*f_place+:4] == f_tlasts_ahead[4*F_PLACES+:4])
                f_message_open = 1'b1;
    end
    wire [3:0] f_tlasts_inside = f_tlasts_ahead[4*F_PLACES+:4];
    always @(*)
        if (f_past_valid) begin
            // The TLASTs that went in and have not come out are inside.
            p5_units_tlasts_inside: assert (f_messages_in_flight == f_tlasts_inside);
            // After a TLAST in, nothing of a later message is inside yet.
            if (f_at_message_start)
                p5_units_nothing_after_tlast: assert (!f_message_open);
            if (f_tracking) begin
                p5_units_credit_covers_due: assert (f_credit >= f_units_due);
                if (f_tracked_input_done)
                    p5_units_tracked_tlast_inside: assert (f_tlasts_inside > f_messages_before);
                else
                    p5_units_tracked_tlast_to_come: assert (f_tlasts_inside == f_messages_before);
            end
            // The skid buffer, the classifier and the FSM keep their
            // datasheets: ready is "the buffer is empty"; a byte that
            // starts a sequence gives no word, a byte with TLAST starts
            // none; an open sequence has given no word, so its U+FFFD never
            // meets a waiting word.
            p5_units_skid_ready: assert (f_skid_ready == !f_buffered_valid);
            if (f_classified_valid) begin
                p5_units_word_or_sequence: assert (f_classified_word == (f_classified_left == 0));
                if (f_classified_last) p5_units_last_opens_nothing: assert (f_classified_left == 0);
            end
            if (f_sequence_open) p5_units_open_gave_no_word: assert (!f_word_valid);
            if (f_pre_error_valid) p5_units_error_alone: assert (!f_delayed_valid);
        end
`endif

    // The specification, for P6 and P7.
`ifdef SPEC_MODEL
    wire [1:0] f_units;
    wire [31:0] f_unit0_data, f_unit1_data;
    wire [3:0] f_unit0_user, f_unit1_user;
    wire f_unit0_last, f_unit1_last;
    wire f_unit0_broken;
    wire f_open;
    utf8_spec_model #(
        .ISO10646(ISO10646)
    ) model (
        .clk(clk),
        .rst(rst),
        .in_valid(s_handshake),
        .in_byte(s_axis_tdata),
        .in_last(s_axis_tlast),
        .units(f_units),
        .unit0_data(f_unit0_data),
        .unit0_user(f_unit0_user),
        .unit0_last(f_unit0_last),
        .unit1_data(f_unit1_data),
        .unit1_user(f_unit1_user),
        .unit1_last(f_unit1_last),
        .unit0_broken(f_unit0_broken),
        .open(f_open)
    );

`endif

    // ---- P6: equality with the specification model ----
`ifdef P6
`ifdef ALWAYS_READY
    // With a consumer that never stalls, the core has a fixed latency
    // (hdl/src/utf8_decoder/mod.rs): the unit that ends with a byte taken in cycle t
    // leaves in t + F_LATENCY, the U+FFFD of a sequence that the byte broke
    // a cycle earlier. So every cycle's output is known: the model's units, delayed.
    // This is stronger than the k-th-unit form below (it checks the timing
    // too), and small enough for abc pdr to prove for all time. Both delay
    // lines are never due in the same cycle: a byte that ends a unit leaves
    // no sequence open for the next byte to break.
    localparam F_UNIT_BITS = 32 + 4 + 1 + 1;  // valid, last, user, data
    wire [F_UNIT_BITS-1:0] f_broken_unit = {f_units != 0 && f_unit0_broken,
        f_unit0_last, f_unit0_user, f_unit0_data};
    wire [F_UNIT_BITS-1:0] f_ending_unit = f_units == 2 ? {1'b1, f_unit1_last, f_unit1_user, f_unit1_data}
        : {f_units == 1 && !f_unit0_broken, f_unit0_last, f_unit0_user, f_unit0_data};
    localparam W = F_UNIT_BITS;
    reg [W*(F_LATENCY-1)-1:0] f_broken_line = 0;
    reg [W*F_LATENCY-1:0] f_ending_line = 0;
    always @(posedge clk)
        if (rst) begin
            f_broken_line <= 0;
            f_ending_line <= 0;
        end else begin
            f_broken_line <= {f_broken_line[W*(F_LATENCY-2)-1:0], f_broken_unit};
            f_ending_line <= {f_ending_line[W*(F_LATENCY-1)-1:0], f_ending_unit};
        end
    wire [W-1:0] f_broken_due = f_broken_line[W*(F_LATENCY-1)-1-:W];
    wire [W-1:0] f_ending_due = f_ending_line[W*F_LATENCY-1-:W];
    wire [W-1:0] f_due = f_broken_due[W-1] ? f_broken_due : f_ending_due;
    always @(*) begin
        p6_unit_on_time: assert (m_axis_tvalid == f_due[W-1]);
        if (m_axis_tvalid) begin
            p6_tdata_matches_model: assert (m_axis_tdata == f_due[31:0]);
            p6_tuser_matches_model: assert (m_axis_tuser == f_due[35:32]);
            p6_tlast_matches_model: assert (m_axis_tlast == f_due[36]);
        end
    end
`else
    // Units since reset, of the model and of the core; 8 bits are plenty
    // for the BMC depths (at most two units a cycle).
    (* anyconst *) reg [7:0] f_k;
    reg [7:0] f_model_units = 0;
    reg [7:0] f_core_units = 0;
    reg f_have_expected = 1'b0;
    reg [31:0] f_expected_data;
    reg [3:0] f_expected_user;
    reg f_expected_last;
    always @(posedge clk)
        if (rst) begin
            f_model_units <= 0;
            f_core_units <= 0;
            f_have_expected <= 1'b0;
        end else begin
            f_model_units <= f_model_units + f_units;
            f_core_units <= f_core_units + m_handshake;
            if (f_units != 0 && f_model_units == f_k) begin
                f_have_expected <= 1'b1;
                f_expected_data <= f_unit0_data;
                f_expected_user <= f_unit0_user;
                f_expected_last <= f_unit0_last;
            end
            if (f_units == 2 && f_model_units + 1 == f_k) begin
                f_have_expected <= 1'b1;
                f_expected_data <= f_unit1_data;
                f_expected_user <= f_unit1_user;
                f_expected_last <= f_unit1_last;
            end
        end
    always @(*) begin
        if (m_handshake && f_core_units == f_k) begin
            p6_unit_is_expected: assert (f_have_expected);
            p6_tdata_matches_model: assert (m_axis_tdata == f_expected_data);
            p6_tuser_matches_model: assert (m_axis_tuser == f_expected_user);
            p6_tlast_matches_model: assert (m_axis_tlast == f_expected_last);
        end
        if (f_drained) p6_every_unit_out: assert (f_core_units == f_model_units);
    end
`endif
`endif

    // ---- P7: covers ----
`ifdef P7
    wire [2:0] f_kind_out = m_handshake && m_axis_tuser[0] ? m_axis_tuser[3:1] : 3'd0;
    always @(*) begin
        cover_invalid_byte: cover (f_kind_out == 1);
        cover_unexpected_continuation: cover (f_kind_out == 2);
        cover_truncated: cover (f_kind_out == 3);
        cover_overlong: cover (f_kind_out == 4);
        cover_surrogate: cover (f_kind_out == 5);
    end
    generate
        if (!ISO10646) begin : rfc3629_only
            always @(*) cover_out_of_range: cover (f_kind_out == 6);
        end
    endgenerate

    // A message that begins C2 41, taken on consecutive cycles: U+FFFD
    // (truncated) and U+0041 leave on consecutive cycles.
    reg [1:0] f_bytes_taken = 0;  // since reset, up to 3
    reg f_took_c2 = 1'b0;
    reg f_took_c2_41 = 1'b0;
    reg f_sent_truncated = 1'b0;
    always @(posedge clk) begin
        if (rst) f_bytes_taken <= 0;
        else if (s_handshake && f_bytes_taken != 3) f_bytes_taken <= f_bytes_taken + 1'b1;
        f_took_c2 <= s_handshake && s_axis_tdata == 8'hC2 && f_bytes_taken == 0;
        if (rst) f_took_c2_41 <= 1'b0;
        else if (s_handshake && s_axis_tdata == 8'h41 && f_took_c2) f_took_c2_41 <= 1'b1;
        f_sent_truncated <= m_handshake && m_axis_tuser == 4'h7;
    end
    always @(*)
        cover_two_word_cycle_c2_41: cover (f_took_c2_41 && f_sent_truncated
            && m_handshake && m_axis_tdata == 32'h41 && m_axis_tuser == 0);

    // Backpressure on m_axis reaches s_axis.
    always @(*)
        cover_stall: cover (!rst && m_axis_tvalid && !m_axis_tready
            && s_axis_tvalid && !s_axis_tready);

    // A reset while a sequence is open, then a character.
    reg f_reset_in_sequence = 1'b0;
    always @(posedge clk) if (rst && f_open) f_reset_in_sequence <= 1'b1;
    always @(*)
        cover_reset_mid_sequence: cover (f_reset_in_sequence && m_handshake
            && m_axis_tuser == 0);
`endif
`endif
endmodule
