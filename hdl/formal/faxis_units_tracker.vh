// faxis_units_tracker.vh: P5_UNITS's check, shared by the decoders: a
// message never yields more units than it has bytes. The solver picks one
// message as its first beat goes in (f_pick); f_credit counts its bytes
// minus its units so far, and may never go below zero. Saturating at the
// top makes it smaller than the true count, so the check stays sound.
//
// `included inside `ifdef FORMAL, after the harness (faxis_core_harness.vh
// or faxis_lanes_harness.vh, for s_handshake, m_handshake and
// f_messages_in_flight). The including module declares
//   F_CREDIT_BITS    localparam: f_credit's width
//   F_MESSAGES_BITS  localparam: f_messages_before's width, enough for
//                    F_MAX_IN_FLIGHT
//   f_bytes_in       wire: the bytes of the beat on s_axis (1 on a 1-lane core)
//   f_units_out      wire: the units of the beat on m_axis (1 on a 1-lane core)
// and gets
//   f_at_message_start    the next beat in starts a message
//   f_tracking            the picked message has gone in, in part at least,
//                         and its TLAST has not come out
//   f_tracked_input_done  its TLAST has gone in
//   f_messages_before     TLASTs still to come out before its first unit
//   f_credit              its bytes in minus its units out (saturating)
//   f_tracked_beat        a beat of it leaves on m_axis this cycle
//   p5_units_not_more_than_bytes, the assertion.
    (* anyseq *) wire f_pick;
    localparam [F_CREDIT_BITS-1:0] F_CREDIT_MAX = {F_CREDIT_BITS{1'b1}};
    reg f_at_message_start = 1'b1;
    reg f_tracking = 1'b0;
    reg f_tracked_input_done = 1'b0;
    reg [F_MESSAGES_BITS-1:0] f_messages_before = 0;
    reg [F_CREDIT_BITS-1:0] f_credit = 0;
    wire f_start_tracking = !f_tracking && s_handshake && f_at_message_start && f_pick;
    wire f_tracked_beat = f_tracking && m_handshake && f_messages_before == 0;
    wire f_tracked_bytes = f_tracking && !f_tracked_input_done && s_handshake;
    wire [F_CREDIT_BITS:0] f_credit_plus = f_credit + f_bytes_in;
    always @(posedge clk)
        if (rst) begin
            f_at_message_start <= 1'b1;
            f_tracking <= 1'b0;
        end else begin
            if (s_handshake) f_at_message_start <= s_axis_tlast;
            if (f_start_tracking) begin
                f_tracking <= 1'b1;
                f_tracked_input_done <= s_axis_tlast;
                f_messages_before <= f_messages_in_flight - (m_handshake && m_axis_tlast);
                f_credit <= f_bytes_in;
            end else if (f_tracking) begin
                if (f_tracked_bytes) f_tracked_input_done <= s_axis_tlast;
                if (m_handshake && m_axis_tlast && f_messages_before != 0)
                    f_messages_before <= f_messages_before - 1;
                if (f_tracked_beat && m_axis_tlast) f_tracking <= 1'b0;
                f_credit <= (f_tracked_bytes ? (f_credit_plus > F_CREDIT_MAX ? F_CREDIT_MAX
                    : f_credit_plus[F_CREDIT_BITS-1:0]) : f_credit)
                    - (f_tracked_beat ? f_units_out : 0);
            end
        end
    always @(*)
        if (f_tracked_beat) p5_units_not_more_than_bytes: assert (f_credit >= f_units_out);
