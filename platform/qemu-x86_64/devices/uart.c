/* COM1, the 16550 UART at 0x3f8, as EFI_SERIAL_IO_PROTOCOL (UEFI 2.10, 12.8) on a handle
 * of its own with OVMF's device path for it (PciRoot(0x0)/Pci(LPC)/Serial(0x0)). The
 * terminal driver binds to it. Polled: the UART's interrupt stays off. */
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include <ember/lib/str.h>
#include <efi/protocol/serial_io.h>
#include "cpu/io.h"
#include "chipset/isa.h"
#include "qemu.h"
#include <ember/lib/guids.h>

#define COM1 0x3f8
#define UART_CLOCK_BAUD 115200 /* the baud rate of divisor 1 */
#define UART_FIFO_DEPTH 16
#define PNP_16550 0x0501

/* Registers (offsets from the base port) and their bits. */
#define UART_DATA 0
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_MSR 6
#define LCR_DLAB 0x80
#define FCR_ENABLE_CLEAR 0x07
#define FCR_TRIGGER_14 0xc0
#define MCR_DTR 0x01
#define MCR_RTS 0x02
#define MCR_OUT2 0x08
#define MCR_LOOP 0x10
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20
#define LSR_TX_EMPTY 0x40
#define MSR_CTS 0x10
#define MSR_DSR 0x20
#define MSR_RI 0x40
#define MSR_DCD 0x80

#define DEFAULT_TIMEOUT_US 1000000
#define MAX_TIMEOUT_US 100000000

#define SETTABLE_CONTROL                                                                           \
	(EFI_SERIAL_DATA_TERMINAL_READY | EFI_SERIAL_REQUEST_TO_SEND |                             \
	 EFI_SERIAL_HARDWARE_LOOPBACK_ENABLE | EFI_SERIAL_HARDWARE_FLOW_CONTROL_ENABLE)

struct uart {
	EFI_SERIAL_IO_PROTOCOL serial;
	EFI_SERIAL_IO_MODE mode;
	struct isa_device_path path;
	EFI_HANDLE handle;
	UINT16 port;
	bool flow_control;
};

static struct uart com1;

static struct uart *uart_from(EFI_SERIAL_IO_PROTOCOL *this)
{
	return this == &com1.serial ? &com1 : NULL;
}

/* LCR bits for the mode's data bits, parity and stop bits. */
static UINT8 line_control(const EFI_SERIAL_IO_MODE *m)
{
	static const UINT8 parity_bits[] = {
	    [NoParity] = 0x00,	 [EvenParity] = 0x18,  [OddParity] = 0x08,
	    [MarkParity] = 0x28, [SpaceParity] = 0x38,
	};
	UINT8 lcr = (UINT8)(m->DataBits - 5);

	if (m->StopBits != OneStopBit)
		lcr |= 0x04; /* 1.5 stop bits with 5 data bits, else 2 */
	return lcr | parity_bits[m->Parity];
}

/* Programs the UART from the mode; the modem control lines are kept. */
static void program(struct uart *u)
{
	UINT16 divisor = (UINT16)(UART_CLOCK_BAUD / u->mode.BaudRate);
	UINT8 lcr = line_control(&u->mode);

	outb(u->port + UART_IER, 0);
	outb(u->port + UART_LCR, LCR_DLAB);
	outb(u->port + 0, (UINT8)divisor);
	outb(u->port + 1, (UINT8)(divisor >> 8));
	outb(u->port + UART_LCR, lcr);
	outb(u->port + UART_FCR,
	     u->mode.ReceiveFifoDepth > 1 ? FCR_ENABLE_CLEAR | FCR_TRIGGER_14 : 0);
}

static EFI_STATUS EFIAPI uart_reset(EFI_SERIAL_IO_PROTOCOL *this)
{
	struct uart *u = uart_from(this);

	if (!u)
		return EFI_INVALID_PARAMETER;
	program(u);
	outb(u->port + UART_MCR, MCR_DTR | MCR_RTS | MCR_OUT2);
	u->flow_control = false;
	return EFI_SUCCESS;
}

/* SetAttributes' checks and defaults (12.8.3): 0 asks for the device's default. */
static EFI_STATUS check_attributes(EFI_SERIAL_IO_MODE *m, UINT64 baud, UINT32 fifo, UINT32 timeout,
				   EFI_PARITY_TYPE parity, UINT8 data_bits,
				   EFI_STOP_BITS_TYPE stop_bits)
{
	UINT64 divisor;

	baud = baud ? baud : UART_CLOCK_BAUD;
	divisor = UART_CLOCK_BAUD / baud;
	if (divisor == 0 || divisor > 0xffff || fifo > UART_FIFO_DEPTH ||
	    timeout > MAX_TIMEOUT_US || (UINT32)parity > SpaceParity ||
	    (UINT32)stop_bits > TwoStopBits || (data_bits && (data_bits < 5 || data_bits > 8)))
		return EFI_INVALID_PARAMETER;
	data_bits = data_bits ? data_bits : 8;
	stop_bits = stop_bits ? stop_bits : OneStopBit;
	/* 1.5 stop bits exist only with 5 data bits, and 2 only with more. */
	if ((stop_bits == OneFiveStopBits) != (data_bits == 5 && stop_bits != OneStopBit))
		return EFI_INVALID_PARAMETER;
	m->BaudRate = UART_CLOCK_BAUD / divisor; /* what the divisor really gives */
	m->ReceiveFifoDepth = fifo == 1 ? 1 : UART_FIFO_DEPTH;
	m->Timeout = timeout ? timeout : DEFAULT_TIMEOUT_US;
	m->Parity = parity ? parity : NoParity;
	m->DataBits = data_bits;
	m->StopBits = stop_bits;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI uart_set_attributes(EFI_SERIAL_IO_PROTOCOL *this, UINT64 baud, UINT32 fifo,
					     UINT32 timeout, EFI_PARITY_TYPE parity,
					     UINT8 data_bits, EFI_STOP_BITS_TYPE stop_bits)
{
	struct uart *u = uart_from(this);
	EFI_SERIAL_IO_MODE m;
	EFI_STATUS status;

	if (!u)
		return EFI_INVALID_PARAMETER;
	m = u->mode;
	status = check_attributes(&m, baud, fifo, timeout, parity, data_bits, stop_bits);
	if (EFI_ERROR(status))
		return status;
	u->mode = m;
	program(u);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI uart_set_control(EFI_SERIAL_IO_PROTOCOL *this, UINT32 control)
{
	struct uart *u = uart_from(this);
	UINT8 mcr;

	if (!u)
		return EFI_INVALID_PARAMETER;
	if (control & ~(UINT32)SETTABLE_CONTROL)
		return EFI_UNSUPPORTED;
	mcr = inb(u->port + UART_MCR) & ~(MCR_DTR | MCR_RTS | MCR_LOOP);
	if (control & EFI_SERIAL_DATA_TERMINAL_READY)
		mcr |= MCR_DTR;
	if (control & EFI_SERIAL_REQUEST_TO_SEND)
		mcr |= MCR_RTS;
	if (control & EFI_SERIAL_HARDWARE_LOOPBACK_ENABLE)
		mcr |= MCR_LOOP;
	outb(u->port + UART_MCR, mcr);
	u->flow_control = control & EFI_SERIAL_HARDWARE_FLOW_CONTROL_ENABLE;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI uart_get_control(EFI_SERIAL_IO_PROTOCOL *this, UINT32 *control)
{
	struct uart *u = uart_from(this);
	UINT8 msr, mcr, lsr;
	UINT32 c = 0;

	if (!u || !control)
		return EFI_INVALID_PARAMETER;
	msr = inb(u->port + UART_MSR);
	mcr = inb(u->port + UART_MCR);
	lsr = inb(u->port + UART_LSR);
	c |= msr & MSR_CTS ? EFI_SERIAL_CLEAR_TO_SEND : 0;
	c |= msr & MSR_DSR ? EFI_SERIAL_DATA_SET_READY : 0;
	c |= msr & MSR_RI ? EFI_SERIAL_RING_INDICATE : 0;
	c |= msr & MSR_DCD ? EFI_SERIAL_CARRIER_DETECT : 0;
	c |= mcr & MCR_DTR ? EFI_SERIAL_DATA_TERMINAL_READY : 0;
	c |= mcr & MCR_RTS ? EFI_SERIAL_REQUEST_TO_SEND : 0;
	c |= mcr & MCR_LOOP ? EFI_SERIAL_HARDWARE_LOOPBACK_ENABLE : 0;
	c |= lsr & LSR_DATA_READY ? 0 : EFI_SERIAL_INPUT_BUFFER_EMPTY;
	c |= lsr & LSR_TX_EMPTY ? EFI_SERIAL_OUTPUT_BUFFER_EMPTY : 0;
	c |= u->flow_control ? EFI_SERIAL_HARDWARE_FLOW_CONTROL_ENABLE : 0;
	*control = c;
	return EFI_SUCCESS;
}

/* Waits until the line status has one of the bits (and, for sending with flow control,
 * the other side is clear to send); false after the mode's per-character timeout. */
static bool wait_status(struct uart *u, UINT8 lsr_bits, bool need_cts)
{
	UINT64 deadline = plat_monotonic_ns() + (UINT64)u->mode.Timeout * 1000;

	for (;;) {
		if ((inb(u->port + UART_LSR) & lsr_bits) &&
		    (!need_cts || (inb(u->port + UART_MSR) & MSR_CTS)))
			return true;
		if (plat_monotonic_ns() > deadline)
			return false;
	}
}

static EFI_STATUS EFIAPI uart_write(EFI_SERIAL_IO_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	struct uart *u = uart_from(this);
	const UINT8 *bytes = buffer;
	UINTN done;

	if (!u || !size || (*size && !buffer))
		return EFI_INVALID_PARAMETER;
	for (done = 0; done < *size; done++) {
		if (!wait_status(u, LSR_THR_EMPTY, u->flow_control)) {
			*size = done;
			return EFI_TIMEOUT;
		}
		outb(u->port + UART_DATA, bytes[done]);
	}
	return EFI_SUCCESS;
}

/* Each character may take up to the mode's Timeout to arrive (12.8.7). */
static EFI_STATUS EFIAPI uart_read(EFI_SERIAL_IO_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	struct uart *u = uart_from(this);
	UINT8 *bytes = buffer;
	UINTN done;

	if (!u || !size || (*size && !buffer))
		return EFI_INVALID_PARAMETER;
	for (done = 0; done < *size; done++) {
		if (!wait_status(u, LSR_DATA_READY, false)) {
			*size = done;
			return EFI_TIMEOUT;
		}
		bytes[done] = inb(u->port + UART_DATA);
	}
	return EFI_SUCCESS;
}

static const EFI_SERIAL_IO_PROTOCOL uart_template = {
    .Revision = EFI_SERIAL_IO_PROTOCOL_REVISION1p1,
    .Reset = uart_reset,
    .SetAttributes = uart_set_attributes,
    .SetControl = uart_set_control,
    .GetControl = uart_get_control,
    .Write = uart_write,
    .Read = uart_read,
    .DeviceTypeGuid = &efi_serial_terminal_device_type_guid,
};

/* Puts COM1 on a handle at 115200 8N1, for the terminal driver to find. */
static EFI_STATUS uart_publish(void)
{
	struct uart *u = &com1;

	u->port = COM1;
	u->serial = uart_template;
	u->serial.Mode = &u->mode;
	u->mode.ControlMask = SETTABLE_CONTROL | EFI_SERIAL_CLEAR_TO_SEND |
			      EFI_SERIAL_DATA_SET_READY | EFI_SERIAL_RING_INDICATE |
			      EFI_SERIAL_CARRIER_DETECT | EFI_SERIAL_INPUT_BUFFER_EMPTY |
			      EFI_SERIAL_OUTPUT_BUFFER_EMPTY;
	check_attributes(&u->mode, 0, 0, 0, DefaultParity, 0, DefaultStopBits);
	uart_reset(&u->serial);
	isa_device_path_init(&u->path, PNP_16550, 0);
	log_info("uart: COM1 at 0x%x, 115200 8N1\n", u->port);
	return protocol_install_multiple(&u->handle, &efi_serial_io_protocol_guid, &u->serial,
					 &efi_device_path_protocol_guid, &u->path, NULL);
}
EMBER_INIT(INIT_CONSOLE, uart_publish);
