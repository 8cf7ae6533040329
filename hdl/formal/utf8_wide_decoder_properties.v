// utf8_wide_decoder_properties: the formal properties of the N-lane UTF-8
// decoder (hdl/src/utf8_decoder_wide), for its exported Verilog: the module UTF8_DUT
// (utf8_decoder_x<N>, or utf8_decoder_iso10646_x<N> with UTF8_ISO10646
// defined) of LANES = N lanes and a latency of F_LATENCY cycles; `utf8hdl
// formal --lanes N` defines the three from the core's Rust description
// (sim/src/cores/utf8_decoder.rs). ZipCPU style: everything under `ifdef
// FORMAL, one property group per check of the wide decoder's formal plan.
//
// Every property reads the core's ports only. The invariants that make the
// k-induction of P3 hold (`INVARIANTS, beat_queue_rate.vh) read the core's
// registers, bound by their exported names (the runner checks that each
// exists), and the probes that the runner adds to the core's formal build
// from its formal plan (sim/src/cores/utf8_decoder.rs, PIPELINE_PROBES):
// the beats in the stages before the queue, and the queue's lanes in step.
//
//   P1, P2        the AXI4-Stream rules, shared by every decoder
//                 (faxis_stream_properties.vh): P1 the producer keeps them
//                 (assumed; TKEEP travels with TDATA and is otherwise free:
//                 null lanes anywhere, a beat of no byte), P2 m_axis keeps
//                 them: a stalled beat holds TVALID, TDATA, TUSER, TKEEP
//                 and TLAST.
//   P3  `P3       full rate: when m_axis_tready was high in the last
//                 cycle, s_axis_tready is high (beat_queue_rate.vh).
//   P4  `P4       no unflagged error, lane by lane, and the shape of a beat:
//                 a kept lane with TUSER[0] = 0 has TUSER = 0 and is neither
//                 a surrogate nor above the profile's maximum; with
//                 TUSER[0] = 1 it is U+FFFD with a kind code of the profile
//                 (1-6; 1-5 for iso10646); a lane past TKEEP is 0 (TDATA and
//                 TUSER); TKEEP is packed (2^k - 1); a beat of TKEEP 0 has
//                 TLAST.
//   P5  `P5       framing: m_axis TLAST handshakes never outnumber s_axis
//                 TLAST handshakes (faxis_stream_properties.vh);
//     `P5_UNITS   a message never yields more units
//                 (popcount of m_axis_tkeep) than it has non-null bytes
//                 (popcount of s_axis_tkeep).
//   P6  `P6       equality with utf8_wide_spec_model, with ALWAYS_READY:
//                 in every cycle, m_axis (TVALID, and TKEEP, TDATA, TUSER,
//                 TLAST of a beat) is the model's beat that leaves its hold
//                 F_LATENCY - 1 cycles before: F_LATENCY cycles after the
//                 beat was taken when the next one follows at once.
//   P7  `P7       covers: N + 1 units completed by one beat (a sequence that
//                 the next beat breaks, then N one-byte units); a message of
//                 no byte giving a null TLAST beat; a sparse TKEEP decoded.
`default_nettype none

module utf8_wide_decoder_properties (clk, rst, s_axis_tdata, s_axis_tkeep, s_axis_tvalid,
    s_axis_tlast, m_axis_tready);
    // Bytes in; words out, with an error flag and kind.
    localparam F_M_LANE_BITS = 32;
    // The output queue's beats for N up to 16 (hdl/src/utf8_decoder_wide/mod.rs,
    // QUEUE_BEATS; the 32-lane core, whose queue is 64, has no P3-P5),
    // which the credits never let the beats in flight pass: at most this
    // many beats, and so messages, are inside the core.
    localparam F_QUEUE_BEATS = 32;
    localparam F_MAX_IN_FLIGHT = F_QUEUE_BEATS;
    localparam CW = $clog2(`LANES + 1);

    // The internal signals of P3's invariants: the probes, the credits
    // and the queue.
    wire [7:0] f_pipeline_beats;
    wire f_queue_lanes_agree;
`include "beat_queue_internals.vh"
`define F_DUT_INTERNALS \
        , .f_pipeline_beats(f_pipeline_beats) \
        , .f_queue_lanes_agree(f_queue_lanes_agree) \
        `F_BEAT_QUEUE_INTERNALS
`include "faxis_lanes_harness.vh"

`ifdef FORMAL
    // Non-null lanes of a beat: bytes in, units out.
    function [CW-1:0] popcount(input [N-1:0] keep);
        integer i;
        begin
            popcount = 0;
            for (i = 0; i < N; i = i + 1) popcount = popcount + keep[i];
        end
    endfunction

    // ---- P3: full rate, and the invariants of its induction ----
`include "beat_queue_rate.vh"

    // ---- P4: no unflagged error, lane by lane; the shape of a beat ----
`ifdef P4
    localparam [31:0] F_MAX_VALUE = ISO10646 ? 32'h7FFF_FFFF : 32'h0010_FFFF;
    localparam [2:0] F_MAX_KIND = ISO10646 ? 3'd5 : 3'd6;
    // One bit per lane for each rule, so that each assertion has one label
    // (yosys names an assertion in a generate loop once only).
    wire [N-1:0] f_null_lane_nonzero, f_character_kind, f_surrogate, f_above_max;
    wire [N-1:0] f_error_not_fffd, f_error_kind_unknown;
    genvar lane;
    generate
        for (lane = 0; lane < N; lane = lane + 1) begin : p4_lane
            wire [31:0] f_data = m_axis_tdata[32*lane+:32];
            wire [3:0] f_user = m_axis_tuser[4*lane+:4];
            wire [2:0] f_kind = f_user[3:1];
            wire f_kept = m_axis_tkeep[lane];
            wire f_character = f_kept && !f_user[0];
            wire f_error = f_kept && f_user[0];
            assign f_null_lane_nonzero[lane] = !f_kept && (f_data != 0 || f_user != 0);
            assign f_character_kind[lane] = f_character && f_kind != 0;
            assign f_surrogate[lane] = f_character && f_data >= 32'hD800 && f_data <= 32'hDFFF;
            assign f_above_max[lane] = f_character && f_data > F_MAX_VALUE;
            assign f_error_not_fffd[lane] = f_error && f_data != 32'hFFFD;
            assign f_error_kind_unknown[lane] = f_error && (f_kind == 0 || f_kind > F_MAX_KIND);
        end
    endgenerate
    always @(*)
        if (m_axis_tvalid) begin
            p4_null_lane_is_zero: assert (f_null_lane_nonzero == 0);
            p4_character_has_no_kind: assert (f_character_kind == 0);
            p4_character_not_surrogate: assert (f_surrogate == 0);
            p4_character_in_range: assert (f_above_max == 0);
            p4_error_is_replacement: assert (f_error_not_fffd == 0);
            p4_error_kind_known: assert (f_error_kind_unknown == 0);
        end
    always @(*)
        if (m_axis_tvalid) begin
            p4_tkeep_packed: assert ((m_axis_tkeep & (m_axis_tkeep + 1'b1)) == 0);
            if (m_axis_tkeep == 0) p4_null_beat_has_tlast: assert (m_axis_tlast);
        end
`endif

    // ---- P5 (units): at most one unit per byte ----
`ifdef P5_UNITS
    // Units <= non-null bytes, per message (faxis_units_tracker.vh).
    localparam F_CREDIT_BITS = 6;
    localparam F_MESSAGES_BITS = 6;  // TLASTs out before its first beat (up to 32)
    wire [CW-1:0] f_bytes_in = popcount(s_axis_tkeep);
    wire [CW-1:0] f_units_out = popcount(m_axis_tkeep);
`include "faxis_units_tracker.vh"
`endif

    // ---- P6: equality with the specification model ----
`ifdef P6
    // The model sees each input beat F_LATENCY - 1 cycles late, so that the
    // beat that leaves its hold is due on m_axis in the same cycle: at line
    // rate every beat is held one cycle, and leaves F_LATENCY cycles after
    // it was taken.
    localparam F_IN_BITS = 2 + 9 * N;  // valid, last, keep, data
    reg [F_IN_BITS*(F_LATENCY-1)-1:0] f_in_line = 0;
    always @(posedge clk)
        if (rst) f_in_line <= 0;
        else
            f_in_line <= {f_in_line[F_IN_BITS*(F_LATENCY-2)-1:0],
                s_handshake, s_axis_tlast, s_axis_tkeep, s_axis_tdata};
    wire [F_IN_BITS-1:0] f_in = f_in_line[F_IN_BITS*(F_LATENCY-1)-1-:F_IN_BITS];

    wire f_due_valid, f_due_last;
    wire [N-1:0] f_due_keep;
    wire [32*N-1:0] f_due_data;
    wire [4*N-1:0] f_due_user;
    utf8_wide_spec_model #(
        .N(N),
        .ISO10646(ISO10646)
    ) model (
        .clk(clk),
        .rst(rst),
        .in_valid(f_in[F_IN_BITS-1]),
        .in_last(f_in[F_IN_BITS-2]),
        .in_keep(f_in[9*N-1:8*N]),
        .in_data(f_in[8*N-1:0]),
        .out_valid(f_due_valid),
        .out_last(f_due_last),
        .out_keep(f_due_keep),
        .out_data(f_due_data),
        .out_user(f_due_user)
    );
    always @(*)
        if (!rst) begin
            p6_beat_on_time: assert (m_axis_tvalid == f_due_valid);
            if (m_axis_tvalid) begin
                p6_tlast_matches_model: assert (m_axis_tlast == f_due_last);
                p6_tkeep_matches_model: assert (m_axis_tkeep == f_due_keep);
                p6_tuser_matches_model: assert (m_axis_tuser == f_due_user);
                p6_tdata_matches_model: assert (m_axis_tdata == f_due_data);
            end
        end
`endif

    // ---- P7: covers ----
`ifdef P7
    // N + 1 units for one beat: a full beat that ends with a U+FFFD
    // (truncated) of a sequence broken by the next beat, then a full beat of
    // N characters on the next cycle: the second input beat completed the
    // first one's U+FFFD and its own N units.
    reg f_sent_broken_tail = 1'b0;
    always @(posedge clk)
        f_sent_broken_tail <= m_handshake && &m_axis_tkeep && !m_axis_tlast
            && m_axis_tuser[4*N-1-:4] == 4'h7;
    always @(*)
        cover_n_plus_1_units: cover (f_sent_broken_tail && m_handshake && &m_axis_tkeep
            && m_axis_tuser == 0);

    // A message of no byte: one beat of TKEEP 0 with TLAST, given back as
    // a null TLAST beat.
    reg f_at_start = 1'b1;
    reg f_took_empty_message = 1'b0;
    always @(posedge clk)
        if (rst) begin
            f_at_start <= 1'b1;
            f_took_empty_message <= 1'b0;
        end else if (s_handshake) begin
            f_at_start <= s_axis_tlast;
            if (f_at_start && s_axis_tlast && s_axis_tkeep == 0) f_took_empty_message <= 1'b1;
        end
    always @(*)
        cover_empty_message: cover (f_took_empty_message && m_handshake && m_axis_tkeep == 0
            && m_axis_tlast);

    // Sparse TKEEP: a beat with a null lane below a kept one, then as many
    // units out as its kept lanes, all characters.
    reg f_took_sparse = 1'b0;
    always @(posedge clk)
        if (rst) f_took_sparse <= 1'b0;
        else if (s_handshake && (s_axis_tkeep & (s_axis_tkeep + 1'b1)) != 0) f_took_sparse <= 1'b1;
    always @(*)
        cover_sparse_tkeep: cover (f_took_sparse && m_handshake && m_axis_tkeep != 0
            && m_axis_tuser == 0);

    // Backpressure on m_axis reaches s_axis only once the 32-beat queue is
    // full, deeper than the covers' bound: the simulation tests cover it
    // (testbench/tests/wide_decoder.rs, queue_full_x2 and _x8).
`endif
`endif
endmodule
