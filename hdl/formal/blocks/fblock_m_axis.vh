// What a block proof with an m_axis states first, included inside its
// `ifdef FORMAL: the run starts in reset (f_past_valid is high from its
// second cycle on), and m_axis keeps the master's rules of AXI4-Stream
// (faxis_master, asserted). The includer defines F_TDATA_BITS and
// F_TUSER_BITS, and F_M_AXIS_TUSER where its m_axis_tuser is not the
// whole of what must hold in a stall.
`ifndef F_M_AXIS_TUSER
`define F_M_AXIS_TUSER m_axis_tuser
`endif
    faxis_master #(.DATA_WIDTH(`F_TDATA_BITS), .USER_WIDTH(`F_TUSER_BITS), .F_ASSUME(0), .F_RESET_CYCLES(1)) consumer_side (
        .clk(clk), .rst(rst), .tvalid(m_axis_tvalid), .tready(m_axis_tready),
        .tdata(m_axis_tdata), .tuser(`F_M_AXIS_TUSER), .tlast(m_axis_tlast)
    );

    reg f_past_valid = 1'b0;
    always @(posedge clk) f_past_valid <= 1'b1;
    always @(*) if (!f_past_valid) assume (rst);
