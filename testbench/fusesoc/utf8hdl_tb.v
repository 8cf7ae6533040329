// utf8hdl_tb: a self-checking Verilog-2005 bench for any utf8hdl core, the
// FuseSoC `sim` target's top (see utf8hdl.core and the README).
//
// It reads PROFILE.in.hex (the bytes of each message) and
// PROFILE.out.hex (the units each message must give), written from an
// independent Python model by testbench/cocotb/vectors.py, feeds the bytes
// to the core with random idle cycles (IDLE percent), random null lanes
// (NULL_LANES percent, wide cores) and random backpressure (STALL percent),
// and checks every word, tuser, tkeep and tlast. It prints one PASS line
// and exits 0, or stops at the first mismatch with $fatal (exit status 1).
// A 1-lane core has no tkeep, so messages of no bytes are skipped for it.
`timescale 1ns / 1ps
`default_nettype none

module utf8hdl_tb;
    parameter LANES = 1;               // 1, 2, 4, 8, 16 or 32
    parameter PROFILE = "rfc3629";     // or "iso10646"
    parameter SEED = 1;
    parameter IDLE = 25;
    parameter STALL = 25;
    parameter NULL_LANES = 20;
    parameter TIMEOUT = 2000;          // cycles without a beat out while words are owed

    reg clk = 1'b0;
    reg rst = 1'b1;
    always #5 clk = !clk;

    reg  [8*LANES-1:0]  s_axis_tdata = 0;
    reg  [LANES-1:0]    s_axis_tkeep = 0;
    reg                 s_axis_tvalid = 1'b0;
    reg                 s_axis_tlast = 1'b0;
    wire                s_axis_tready;
    wire [32*LANES-1:0] m_axis_tdata;
    wire [4*LANES-1:0]  m_axis_tuser;
    wire [LANES-1:0]    m_axis_tkeep;
    wire                m_axis_tvalid;
    wire                m_axis_tlast;
    reg                 m_axis_tready = 1'b0;

`define UTF8HDL_PORTS .clk(clk), .rst(rst), \
    .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), \
    .s_axis_tlast(s_axis_tlast), .m_axis_tdata(m_axis_tdata), .m_axis_tuser(m_axis_tuser), \
    .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast)
`define UTF8HDL_KEEP .s_axis_tkeep(s_axis_tkeep), .m_axis_tkeep(m_axis_tkeep)

    // Only the chosen core's module need be compiled: Icarus elaborates the
    // branch taken.
    generate
        if (PROFILE == "rfc3629" && LANES == 1) begin : core
            utf8_decoder dut(`UTF8HDL_PORTS);
        end else if (PROFILE == "iso10646" && LANES == 1) begin : core
            utf8_decoder_iso10646 dut(`UTF8HDL_PORTS);
        end else if (PROFILE == "rfc3629" && LANES == 2) begin : core
            utf8_decoder_x2 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "iso10646" && LANES == 2) begin : core
            utf8_decoder_iso10646_x2 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "rfc3629" && LANES == 4) begin : core
            utf8_decoder_x4 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "iso10646" && LANES == 4) begin : core
            utf8_decoder_iso10646_x4 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "rfc3629" && LANES == 8) begin : core
            utf8_decoder_x8 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "iso10646" && LANES == 8) begin : core
            utf8_decoder_iso10646_x8 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "rfc3629" && LANES == 16) begin : core
            utf8_decoder_x16 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "iso10646" && LANES == 16) begin : core
            utf8_decoder_iso10646_x16 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "rfc3629" && LANES == 32) begin : core
            utf8_decoder_x32 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else if (PROFILE == "iso10646" && LANES == 32) begin : core
            utf8_decoder_iso10646_x32 dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end else begin : core
            initial $fatal(1, "no utf8hdl core of profile %0s and %0d lanes", PROFILE, LANES);
        end
        if (LANES == 1) begin : keep
            assign m_axis_tkeep = 1'b1;
        end
    endgenerate

    integer stimulus, expected;  // file handles
    integer seed_in = SEED, seed_out = SEED + 1;
    integer bytes_in = 0, units_out = 0, messages_out = 0, cycle = 0, quiet = 0;
    reg     input_done = 1'b0, expected_done = 1'b0;

    initial begin
        stimulus = $fopen({PROFILE, ".in.hex"}, "r");
        expected = $fopen({PROFILE, ".out.hex"}, "r");
        if (stimulus == 0 || expected == 0)
            $fatal(1, "cannot open %0s.in.hex and %0s.out.hex", PROFILE, PROFILE);
        repeat (4) @(posedge clk);
        rst <= 1'b0;
    end

    // The next input token (bits 7:0 a byte, 8 its message's last, 9 a
    // message of no bytes); a 1-lane core skips the empty messages.
    reg [9:0] token;
    reg       token_ok;
    task next_token;
        integer got;
        begin
            token_ok = 1'b0;
            got = $fscanf(stimulus, "%h\n", token);
            while (got == 1 && LANES == 1 && token[9])
                got = $fscanf(stimulus, "%h\n", token);
            token_ok = got == 1;
        end
    endtask

    // One beat: bytes until a message's last, with null lanes at random.
    reg [8*LANES-1:0] beat_data;
    reg [LANES-1:0]   beat_keep;
    reg               beat_last, beat_ok;
    integer           lane;
    task next_beat;
        begin
            beat_data = 0;
            beat_keep = 0;
            beat_last = 1'b0;
            beat_ok = 1'b0;
            lane = 0;
            while (lane < LANES && !beat_last && !input_done) begin
                if (LANES > 1 && {$random(seed_in)} % 100 < NULL_LANES) begin
                    beat_data[8*lane +: 8] = $random(seed_in);
                end else begin
                    next_token;
                    if (!token_ok) begin
                        input_done = 1'b1;
                    end else begin
                        beat_ok = 1'b1;
                        beat_last = token[8] || token[9];
                        if (!token[9]) begin
                            beat_data[8*lane +: 8] = token[7:0];
                            beat_keep[lane] = 1'b1;
                            bytes_in = bytes_in + 1;
                        end
                    end
                end
                lane = lane + 1;
            end
        end
    endtask

    always @(posedge clk) begin
        if (!rst && (!s_axis_tvalid || s_axis_tready)) begin
            s_axis_tvalid <= 1'b0;
            s_axis_tlast <= 1'b0;
            if (!input_done && {$random(seed_in)} % 100 >= IDLE) begin
                next_beat;
                if (beat_ok) begin
                    s_axis_tdata <= beat_data;
                    s_axis_tkeep <= beat_keep;
                    s_axis_tlast <= beat_last;
                    s_axis_tvalid <= 1'b1;
                end
            end
        end
    end

    // The next expected entry: bits 31:0 a word, 35:32 its tuser, 36 the
    // end of a message, 37 a message of no bytes.
    reg [39:0] want;
    task next_expected;
        integer got;
        begin
            got = $fscanf(expected, "%h\n", want);
            while (got == 1 && LANES == 1 && want[37])
                got = $fscanf(expected, "%h\n", want);
            if (got != 1) begin
                expected_done = 1'b1;
                want = 40'hff_0000_0000;
            end
        end
    endtask

    task mismatch(input [8*64-1:0] what, input [39:0] got);
        begin
            $display("utf8hdl_tb: MISMATCH at cycle %0d, unit %0d, message %0d: %0s: got %h, want %h",
                     cycle, units_out, messages_out, what, got, want);
            $fatal(1, "utf8hdl_tb: %0d-lane %0s core disagrees with the model", LANES, PROFILE);
        end
    endtask

    integer out_lane;
    reg     packed_ok;
    always @(posedge clk) begin
        cycle <= cycle + 1;
        if (!rst) begin
            m_axis_tready <= {$random(seed_out)} % 100 >= STALL;
            quiet <= quiet + 1;
            if (m_axis_tvalid && m_axis_tready) begin
                quiet <= 0;
                packed_ok = 1'b1;
                for (out_lane = 1; out_lane < LANES; out_lane = out_lane + 1)
                    if (m_axis_tkeep[out_lane] && !m_axis_tkeep[out_lane - 1])
                        packed_ok = 1'b0;
                if (!packed_ok)
                    mismatch("m_axis_tkeep not packed", {31'b0, m_axis_tkeep});
                for (out_lane = 0; out_lane < LANES; out_lane = out_lane + 1) begin
                    if (m_axis_tkeep[out_lane]) begin
                        next_expected;
                        if ({4'b0, m_axis_tuser[4*out_lane +: 4], m_axis_tdata[32*out_lane +: 32]} != want)
                            mismatch("word", {4'b0, m_axis_tuser[4*out_lane +: 4],
                                              m_axis_tdata[32*out_lane +: 32]});
                        units_out = units_out + 1;
                    end else if (m_axis_tdata[32*out_lane +: 32] != 0 || m_axis_tuser[4*out_lane +: 4] != 0) begin
                        mismatch("a lane past m_axis_tkeep not 0", {4'b0, m_axis_tuser[4*out_lane +: 4],
                                                                 m_axis_tdata[32*out_lane +: 32]});
                    end
                end
                if (m_axis_tlast) begin
                    next_expected;
                    if (!want[36]) mismatch("m_axis_tlast before the message's last unit", 40'h10_0000_0000);
                    messages_out = messages_out + 1;
                end
            end
            if (input_done && quiet > TIMEOUT) begin
                next_expected;
                if (!expected_done) mismatch("the core stopped; still owed", 40'hff_0000_0000);
                $display("utf8hdl_tb: PASS: %0d-lane %0s core, %0d bytes, %0d messages, %0d units in %0d cycles",
                         LANES, PROFILE, bytes_in, messages_out, units_out, cycle);
                $finish;
            end else if (!input_done && quiet > 100 * TIMEOUT) begin
                mismatch("no beat out for too long", 40'hff_0000_0000);
            end
        end
    end
endmodule

`default_nettype wire
