// utf8hdl_tb: a self-checking Verilog-2005 bench for any utf8hdl core, the
// top of the FuseSoC `sim` target of every core file in synth/rtl/.
//
// The core under test is the module named by the define UTF8HDL_DUT; its
// core file sets it, the lanes and the widths of its streams. The bench
// reads VECTORS.in.hex (the input units of each message) and
// VECTORS.out.hex (the output units each message must give), written from
// independent Python models by testbench/cocotb/vectors.py, feeds the
// inputs to the core with random idle cycles (IDLE percent), random null
// lanes (NULL_LANES percent, cores with tkeep) and random backpressure
// (STALL percent), and checks every tdata, tuser, tkeep and tlast. It
// prints one PASS line and exits 0, or stops at the first mismatch with
// $fatal (exit status 1). A core without tkeep (TKEEP = 0: the 1-lane
// cores but the validator) cannot take a message of no input, so those
// are skipped for it.
`timescale 1ns / 1ps
`default_nettype none

module utf8hdl_tb;
    parameter LANES = 1;               // lanes of each stream: 1, 2, 4, 8, 16 or 32
    parameter TKEEP = 0;               // 1: the core has s_axis_tkeep and m_axis_tkeep
    parameter IN_BITS = 8;             // s_axis_tdata bits a lane
    parameter OUT_BITS = 32;           // m_axis_tdata bits a lane
    parameter USER_BITS = 4;           // m_axis_tuser bits a lane
    parameter VECTORS = "utf8_decoder"; // the vector files' name
    parameter SEED = 1;
    parameter IDLE = 25;
    parameter STALL = 25;
    parameter NULL_LANES = 20;
    parameter PACKED = 1;              // m_axis_tkeep packed and null lanes 0; 0: a core that
                                       // passes its input's beats on (null lanes as they came)
    parameter TIMEOUT = 2000;          // cycles without a beat out while units are owed

    // An expected line: the unit's tdata and tuser, then two flags.
    localparam UNIT = OUT_BITS + USER_BITS;

    reg clk = 1'b0;
    reg rst = 1'b1;
    always #5 clk = !clk;

    reg  [IN_BITS*LANES-1:0] s_axis_tdata = 0;
    reg  [LANES-1:0]    s_axis_tkeep = 0;
    reg                 s_axis_tvalid = 1'b0;
    reg                 s_axis_tlast = 1'b0;
    wire                s_axis_tready;
    wire [OUT_BITS*LANES-1:0] m_axis_tdata;
    wire [USER_BITS*LANES-1:0] m_axis_tuser;
    wire [LANES-1:0]    m_axis_tkeep;
    wire                m_axis_tvalid;
    wire                m_axis_tlast;
    reg                 m_axis_tready = 1'b0;

`define UTF8HDL_PORTS .clk(clk), .rst(rst), \
    .s_axis_tdata(s_axis_tdata), .s_axis_tvalid(s_axis_tvalid), .s_axis_tready(s_axis_tready), \
    .s_axis_tlast(s_axis_tlast), .m_axis_tdata(m_axis_tdata), .m_axis_tuser(m_axis_tuser), \
    .m_axis_tvalid(m_axis_tvalid), .m_axis_tready(m_axis_tready), .m_axis_tlast(m_axis_tlast)
`define UTF8HDL_KEEP .s_axis_tkeep(s_axis_tkeep), .m_axis_tkeep(m_axis_tkeep)

`ifndef UTF8HDL_DUT
`define UTF8HDL_DUT utf8_decoder
`endif
    // Icarus elaborates only the branch taken, so a core without tkeep
    // need not have the ports of the other branch.
    generate
        if (!TKEEP) begin : core
            `UTF8HDL_DUT dut(`UTF8HDL_PORTS);
            assign m_axis_tkeep = 1'b1;
        end else begin : core
            `UTF8HDL_DUT dut(`UTF8HDL_PORTS, `UTF8HDL_KEEP);
        end
    endgenerate

    integer stimulus, expected;  // file handles
    integer seed_in = SEED, seed_out = SEED + 1;
    integer units_in = 0, units_out = 0, messages_out = 0, cycle = 0, quiet = 0;
    reg     input_done = 1'b0, expected_done = 1'b0;

    initial begin
        stimulus = $fopen({VECTORS, ".in.hex"}, "r");
        expected = $fopen({VECTORS, ".out.hex"}, "r");
        if (stimulus == 0 || expected == 0)
            $fatal(1, "cannot open %0s.in.hex and %0s.out.hex", VECTORS, VECTORS);
        repeat (4) @(posedge clk);
        rst <= 1'b0;
    end

    // The next input token: an input unit, then a bit for its message's
    // last and one for a message of no input (a core without tkeep skips
    // those).
    reg [IN_BITS+1:0] token;
    reg       token_ok;
    task next_token;
        integer got;
        begin
            token_ok = 1'b0;
            got = $fscanf(stimulus, "%h\n", token);
            while (got == 1 && !TKEEP && token[IN_BITS+1])
                got = $fscanf(stimulus, "%h\n", token);
            token_ok = got == 1;
        end
    endtask

    // One beat: bytes until a message's last, with null lanes at random.
    reg [IN_BITS*LANES-1:0] beat_data;
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
                if (TKEEP && {$random(seed_in)} % 100 < NULL_LANES) begin
                    beat_data[IN_BITS*lane +: IN_BITS] = $random(seed_in);
                end else begin
                    next_token;
                    if (!token_ok) begin
                        input_done = 1'b1;
                    end else begin
                        beat_ok = 1'b1;
                        beat_last = token[IN_BITS] || token[IN_BITS+1];
                        if (!token[IN_BITS+1]) begin
                            beat_data[IN_BITS*lane +: IN_BITS] = token[IN_BITS-1:0];
                            beat_keep[lane] = 1'b1;
                            units_in = units_in + 1;
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

    // The next expected line: a unit's tdata and tuser (bits UNIT-1:0), the
    // end of a message (bit UNIT) or of a message of no input (UNIT+1).
    reg [UNIT+1:0] want;
    task next_expected;
        integer got;
        begin
            got = $fscanf(expected, "%h\n", want);
            while (got == 1 && !TKEEP && want[UNIT+1])
                got = $fscanf(expected, "%h\n", want);
            if (got != 1) begin
                expected_done = 1'b1;
                want = {UNIT+2{1'b1}};  // matches no unit
            end
        end
    endtask

    task mismatch(input [8*64-1:0] what, input [UNIT+1:0] got);
        begin
            $display("utf8hdl_tb: MISMATCH at cycle %0d, unit %0d, message %0d: %0s: got %h, want %h",
                     cycle, units_out, messages_out, what, got, want);
            $fatal(1, "utf8hdl_tb: the %0s core disagrees with the model", VECTORS);
        end
    endtask

    // Lane k of the m_axis beat: its tuser and tdata.
    function [UNIT-1:0] lane_unit(input integer k);
        lane_unit = {m_axis_tuser[USER_BITS*k +: USER_BITS], m_axis_tdata[OUT_BITS*k +: OUT_BITS]};
    endfunction

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
                if (PACKED && !packed_ok)
                    mismatch("m_axis_tkeep not packed", m_axis_tkeep);
                for (out_lane = 0; out_lane < LANES; out_lane = out_lane + 1) begin
                    if (m_axis_tkeep[out_lane]) begin
                        next_expected;
                        if ({2'b0, lane_unit(out_lane)} != want)
                            mismatch("unit", lane_unit(out_lane));
                        units_out = units_out + 1;
                    end else if (PACKED && lane_unit(out_lane) != 0) begin
                        mismatch("a lane past m_axis_tkeep not 0", lane_unit(out_lane));
                    end
                end
                if (m_axis_tlast) begin
                    next_expected;
                    if (!want[UNIT]) mismatch("m_axis_tlast before the message's last unit", {2'b01, {UNIT{1'b0}}});
                    messages_out = messages_out + 1;
                end
            end
            if (input_done && quiet > TIMEOUT) begin
                next_expected;
                if (!expected_done) mismatch("the core stopped; still owed", 0);
                $display("utf8hdl_tb: PASS: %0s, %0d lanes, %0d units in, %0d messages, %0d units out in %0d cycles",
                         VECTORS, LANES, units_in, messages_out, units_out, cycle);
                $finish;
            end else if (!input_done && quiet > 100 * TIMEOUT) begin
                mismatch("no beat out for too long", 0);
            end
        end
    end
endmodule

`default_nettype wire
