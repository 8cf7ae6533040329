// utf8_spec_step, utf8_spec_model: the specification of UTF-8 decoding with
// U+FFFD substitution, as plain unpipelined Verilog, for the formal proofs
// that the decoders' words are the specification's units. utf8_spec_step is
// one byte's step, without a clock (the wide model chains one per lane);
// utf8_spec_model is the step and its state, a byte a cycle.
//
// Written from the specifications, not from the RTL:
//   * RFC 3629 §3 and its Table (1-4 octets, up to U+10FFFF, no surrogates;
//     §4's syntax gives the second-octet ranges after E0, ED, F0 and F4);
//   * ISO/IEC 10646-1:1993 Amd. 2 Annex R, Table 1 (1-6 octets, up to
//     7FFF FFFF; F8 and FC need 88 and 84 as smallest second octets to be
//     shortest form; Note 3: no surrogates);
//   * Unicode §3.9 "U+FFFD substitution of maximal subparts";
//   * the README's "Error kinds" table for the kind codes in TUSER[3:1].
//
// One byte in (`in_valid`), zero, one or two units out in the same cycle:
// unit 0 first. A byte that shows that an open sequence is broken ends that
// sequence as U+FFFD (unit 0, never the last of a message) and is then read
// again as the start of the next unit (unit 1). The last byte of a message
// (`in_last`) closes any open sequence: the message ends with a unit that
// carries `last`. A unit's TUSER is {kind, error}: 0 for a character.
// utf8_spec_step also takes the end of a message without a byte (`in_last`
// and not `in_valid`, a wide beat of null lanes): an open sequence ends
// there as U+FFFD (truncated), unit 0, `broken` since it ended before.
//
// Parameter:
//   ISO10646  0: RFC 3629 profile; 1: ISO/IEC 10646 Annex R profile
`default_nettype none

module utf8_spec_step #(
    parameter ISO10646 = 0
) (
    // The open sequence before the byte, and after it: {remaining
    // continuing octets (0: none open), the next octet is the second, the
    // lead, the value so far}.
    input wire [43:0] state,
    output wire [43:0] next_state,
    input wire in_valid,
    input wire [7:0] in_byte,
    input wire in_last,
    output reg [1:0] units,
    output reg [31:0] unit0_data,
    output reg [3:0] unit0_user,
    output reg unit0_last,
    output reg [31:0] unit1_data,
    output reg [3:0] unit1_user,
    output reg unit1_last,
    // Unit 0 is a sequence that this byte broke: it ended before the byte.
    output reg unit0_broken,
    // A sequence is open: a lead has been taken and not yet completed.
    output wire open
);
`ifdef FORMAL
    // Error kinds: the README's table; TUSER = {code, 1'b1}.
    localparam [3:0] OK = 4'h0;
    localparam [2:0] INVALID_BYTE = 3'd1;
    localparam [2:0] UNEXPECTED_CONTINUATION = 3'd2;
    localparam [2:0] TRUNCATED = 3'd3;
    localparam [2:0] OVERLONG = 3'd4;
    localparam [2:0] SURROGATE = 3'd5;
    localparam [2:0] OUT_OF_RANGE = 3'd6;
    localparam [31:0] REPLACEMENT = 32'h0000_FFFD;

    function [3:0] flagged(input [2:0] kind);
        flagged = {kind, 1'b1};
    endfunction

    function is_continuing(input [7:0] octet);  // 10xxxxxx
        is_continuing = octet >= 8'h80 && octet <= 8'hBF;
    endfunction

    // The number of octets a first octet announces; 0 when it cannot start a
    // sequence at all.
    function [2:0] length_of(input [7:0] octet);
        if (octet <= 8'h7F) length_of = 1;
        else if (octet <= 8'hC1) length_of = 0;  // continuing, or C0 C1 (overlong)
        else if (octet <= 8'hDF) length_of = 2;
        else if (octet <= 8'hEF) length_of = 3;
        else if (octet <= 8'hF4) length_of = 4;
        else if (!ISO10646) length_of = 0;  // F5..FF
        else if (octet <= 8'hF7) length_of = 4;
        else if (octet <= 8'hFB) length_of = 5;
        else if (octet <= 8'hFD) length_of = 6;
        else length_of = 0;  // FE FF
    endfunction

    // Why a first octet that cannot start a sequence is malformed.
    function [2:0] kind_of_bad_start(input [7:0] octet);
        if (octet >= 8'hFE) kind_of_bad_start = INVALID_BYTE;
        else if (octet <= 8'hBF) kind_of_bad_start = UNEXPECTED_CONTINUATION;
        else if (octet <= 8'hC1) kind_of_bad_start = OVERLONG;
        else kind_of_bad_start = OUT_OF_RANGE;  // rfc3629: F5..FD
    endfunction

    // The free bits of a first octet (Annex R Table 1).
    function [31:0] lead_bits(input [7:0] octet, input [2:0] length);
        case (length)
            1: lead_bits = octet & 8'h7F;
            2: lead_bits = octet & 8'h1F;
            3: lead_bits = octet & 8'h0F;
            4: lead_bits = octet & 8'h07;
            5: lead_bits = octet & 8'h03;
            default: lead_bits = octet & 8'h01;
        endcase
    endfunction

    // The smallest and largest second octet after a lead, and the kind of a
    // continuing octet outside them.
    function [7:0] second_low(input [7:0] lead);
        case (lead)
            8'hE0: second_low = 8'hA0;  // below: U+0000..U+07FF, overlong
            8'hF0: second_low = 8'h90;  // below: up to U+FFFF, overlong
            8'hF8: second_low = 8'h88;  // below: up to U+1F FFFF, overlong
            8'hFC: second_low = 8'h84;  // below: up to U+3FF FFFF, overlong
            default: second_low = 8'h80;
        endcase
    endfunction

    function [7:0] second_high(input [7:0] lead);
        if (lead == 8'hED) second_high = 8'h9F;  // above: D800..DFFF
        else if (lead == 8'hF4 && !ISO10646) second_high = 8'h8F;  // above: > 10FFFF
        else second_high = 8'hBF;
    endfunction

    function [2:0] kind_outside_second(input [7:0] lead);
        if (lead == 8'hED) kind_outside_second = SURROGATE;
        else if (lead == 8'hF4 && !ISO10646) kind_outside_second = OUT_OF_RANGE;
        else kind_outside_second = OVERLONG;
    endfunction

    wire [2:0] remaining = state[43:41];  // continuing octets still needed
    wire second = state[40];  // the next octet is the sequence's second
    wire [7:0] lead = state[39:32];
    wire [31:0] value = state[31:0];
    assign open = remaining != 0;

    reg [2:0] next_remaining;
    reg next_second;
    reg [7:0] next_lead;
    reg [31:0] next_value;
    reg [2:0] start_length;
    reg start_emits;
    reg [31:0] start_data;
    reg [3:0] start_user;
    reg continues;

    always @(*) begin
        units = 0;
        unit0_data = 0;
        unit0_user = OK;
        unit0_last = 0;
        unit1_data = 0;
        unit1_user = OK;
        unit1_last = 0;
        unit0_broken = 0;
        next_remaining = remaining;
        next_second = second;
        next_lead = lead;
        next_value = value;
        // The unit this byte is when it starts one: it is complete at once
        // unless it is a lead (of a message that goes on).
        start_length = length_of(in_byte);
        start_emits = start_length <= 1 || in_last;
        start_data = start_length == 1 ? in_byte : REPLACEMENT;
        start_user = start_length == 1 ? OK
            : start_length == 0 ? flagged(kind_of_bad_start(in_byte))
            : flagged(TRUNCATED);
        continues = is_continuing(in_byte)
            && (!second || (in_byte >= second_low(lead) && in_byte <= second_high(lead)));
        if (in_valid) begin
            if (remaining != 0 && continues) begin
                next_value = {value[25:0], in_byte[5:0]};
                next_remaining = remaining - 1;
                next_second = 0;
                if (remaining == 1) begin
                    units = 1;
                    unit0_data = next_value;
                    unit0_last = in_last;
                end else if (in_last) begin
                    units = 1;
                    unit0_data = REPLACEMENT;
                    unit0_user = flagged(TRUNCATED);
                    unit0_last = 1;
                    next_remaining = 0;
                end
            end else begin
                if (remaining != 0) begin
                    // The open sequence is a maximal subpart: unit 0. The
                    // byte then starts the next unit.
                    units = 1;
                    unit0_broken = 1;
                    unit0_data = REPLACEMENT;
                    unit0_user = second && is_continuing(in_byte)
                        ? flagged(kind_outside_second(lead)) : flagged(TRUNCATED);
                end
                // The byte starts a unit: a character, an error, or a lead.
                next_remaining = 0;
                next_second = 0;
                if (start_emits) begin
                    if (units == 0) begin
                        unit0_data = start_data;
                        unit0_user = start_user;
                        unit0_last = in_last;
                    end else begin
                        unit1_data = start_data;
                        unit1_user = start_user;
                        unit1_last = in_last;
                    end
                    units = units + 1;
                end else begin
                    next_remaining = start_length - 1;
                    next_second = 1;
                    next_lead = in_byte;
                    next_value = lead_bits(in_byte, start_length);
                end
            end
        end else if (in_last && remaining != 0) begin
            units = 1;
            unit0_broken = 1;
            unit0_data = REPLACEMENT;
            unit0_user = flagged(TRUNCATED);
            unit0_last = 1;
            next_remaining = 0;
            next_second = 0;
        end
    end
    assign next_state = {next_remaining, next_second, next_lead, next_value};
`endif
endmodule

module utf8_spec_model #(
    parameter ISO10646 = 0
) (
    input wire clk,
    input wire rst,
    input wire in_valid,
    input wire [7:0] in_byte,
    input wire in_last,
    output wire [1:0] units,
    output wire [31:0] unit0_data,
    output wire [3:0] unit0_user,
    output wire unit0_last,
    output wire [31:0] unit1_data,
    output wire [3:0] unit1_user,
    output wire unit1_last,
    // Unit 0 is a sequence that this byte broke: it ended before the byte.
    output wire unit0_broken,
    // A sequence is open: a lead has been taken and not yet completed.
    output wire open
);
`ifdef FORMAL
    reg [43:0] state = 0;
    wire [43:0] next_state;
    utf8_spec_step #(
        .ISO10646(ISO10646)
    ) step (
        .state(state),
        .next_state(next_state),
        .in_valid(in_valid),
        .in_byte(in_byte),
        .in_last(in_valid && in_last),
        .units(units),
        .unit0_data(unit0_data),
        .unit0_user(unit0_user),
        .unit0_last(unit0_last),
        .unit1_data(unit1_data),
        .unit1_user(unit1_user),
        .unit1_last(unit1_last),
        .unit0_broken(unit0_broken),
        .open(open)
    );
    always @(posedge clk)
        if (rst) state <= 0;
        else state <= next_state;

`endif
endmodule
