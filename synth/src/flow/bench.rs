//! The place-and-route bench: the core with every port registered behind
//! five pins.

use utf8hdl_sim::core::{Dir, Port, Role};

/// The bench for place and route: the module `top`, whose ports are
/// `ports`, with every port registered. Inputs come from a shift register
/// fed by one pin; outputs go into a one-level XOR compactor
/// (`compact <= (compact << 1) ^ outputs`), whose top bit is the one output
/// pin, so no output bit can be optimised away and every path into and out
/// of the core is one register to another.
///
/// The shift register moves under a clock enable from a pin of its own
/// (`shift`). Without it, a chain bit and a core register that samples the
/// bit below it without an enable are two flops with one D, which yosys
/// merges into one: at 16 lanes the merged flop was the bench's
/// `m_axis_tready` and the core's `byte_lanes.beat_tlast`, and the net from
/// it, placed for neither, was 2.6 ns of the critical path. The enable
/// costs no logic: it is the flops' own clock enable.
pub fn bench(top: &str, ports: &[Port]) -> String {
    let inputs: Vec<&Port> = ports
        .iter()
        .filter(|p| p.dir == Dir::In && matches!(p.role, Role::Input | Role::Output))
        .collect();
    let outputs: Vec<&Port> = ports.iter().filter(|p| p.dir == Dir::Out).collect();
    let chain_width: usize = inputs.iter().map(|p| p.width).sum();
    let compact_width: usize = outputs.iter().map(|p| p.width).sum();
    let wires: String = outputs
        .iter()
        .map(|p| format!("    wire {}{};\n", p.range(), p.name))
        .collect();
    let mut offset = 0;
    let connections = ports
        .iter()
        .map(|p| {
            let source = match (p.dir, p.role) {
                (_, Role::Clock) => "clk".to_string(),
                (_, Role::Reset) => "rst".to_string(),
                (Dir::Out, _) => p.name.clone(),
                (Dir::In, _) => {
                    offset += p.width;
                    match p.width {
                        1 => format!("chain[{}]", offset - 1),
                        w => format!("chain[{}:{}]", offset - 1, offset - w),
                    }
                }
            };
            format!("        .{}({source})", p.name)
        })
        .collect::<Vec<_>>()
        .join(",\n");
    // The first output is the most significant: the order of the port list.
    let compacted = outputs
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let shift_in = match chain_width {
        1 => "si".to_string(),
        w => format!("{{chain[{}:0], si}}", w - 2),
    };
    format!(
        r#"// Place-and-route bench for {top}: every port registered, five pins.
module {top}_bench(clk, rst_pin, shift_pin, si, so);
    input wire clk;
    input wire rst_pin;
    input wire shift_pin;
    input wire si;
    output wire so;
    reg rst;
    reg shift;
    reg [{chain_top}:0] chain;
    reg [{compact_top}:0] compact;
{wires}    {top} dut (
{connections}
    );
    initial begin
        rst = 1'b0;
        shift = 1'b0;
        chain = {chain_width}'h0;
        compact = {compact_width}'h0;
    end
    always @(posedge clk) begin
        rst <= rst_pin;
        shift <= shift_pin;
        if (shift)
            chain <= {shift_in};
        compact <= {{compact[{compact_next}:0], 1'b0}} ^ {{{compacted}}};
    end
    assign so = compact[{compact_top}];
endmodule
"#,
        chain_top = chain_width - 1,
        compact_top = compact_width - 1,
        compact_next = compact_width - 2,
    )
}
