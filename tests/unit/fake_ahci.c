/* The fake AHCI HBA (see fake_ahci.h): its registers in BAR 5, the ports' link and engines,
 * and the walk of the command list. The register layout is written here again from the
 * AHCI 1.3.1 specification, not taken from the driver, so that a mistake in the driver's
 * header shows. */
#include <stdlib.h>
#include <string.h>

#include "fake_ahci.h"
#include "support/test.h"
#include <ember/lib/util.h>

/* Generic host control (3.1). */
#define CAP 0x00
#define GHC 0x04
#define IS 0x08
#define PI 0x0c
#define VS 0x10
#define CAP_NCS_SHIFT 8
#define CAP_SCLO (1u << 24)
#define CAP_SSS (1u << 27)
#define CAP_S64A (1u << 31)
#define GHC_HR (1u << 0)
#define GHC_IE (1u << 1)
#define GHC_AE (1u << 31)

/* Port registers (3.3). */
#define PORT_BASE 0x100
#define PORT_SIZE 0x80
#define PxCLB 0x00
#define PxCLBU 0x04
#define PxFB 0x08
#define PxFBU 0x0c
#define PxIS 0x10
#define PxIE 0x14
#define PxCMD 0x18
#define PxTFD 0x20
#define PxSIG 0x24
#define PxSSTS 0x28
#define PxSCTL 0x2c
#define PxSERR 0x30
#define PxSACT 0x34
#define PxCI 0x38
#define CMD_ST (1u << 0)
#define CMD_SUD (1u << 1)
#define CMD_POD (1u << 2)
#define CMD_CLO (1u << 3)
#define CMD_FRE (1u << 4)
#define CMD_FR (1u << 14)
#define CMD_CR (1u << 15)
#define CMD_WRITABLE (CMD_ST | CMD_SUD | CMD_POD | CMD_FRE | (1u << 24) | (0xfu << 28))
#define IS_DHRS (1u << 0)
#define IS_HBFS (1u << 29)
#define IS_TFES (1u << 30)
#define TFD_BSY 0x80u
#define TFD_DRQ 0x08u
#define TFD_NO_DEVICE 0x7fu
#define SSTS_PRESENT 0x1u		/* DET 1: device detected, no communication */
#define SSTS_UP (0x3u | 0x10u | 0x100u) /* DET 3, Gen 1 speed, IPM active */

/* Command list structures (4.2). */
#define HEADER_BYTES 32
#define HEADER_A (1u << 5)
#define HEADER_W (1u << 6)
#define TABLE_PRDT 0x80
#define TABLE_ACMD 0x40
#define PRD_BYTES 16
#define RFIS_D2H 0x40
#define FIS_D2H 0x34
#define FIS_H2D 0x27
#define FIS_C 0x80

#define BAR_SIZE 0x2000
#define ABAR 5

static void violation(struct fake_ahci_port *p, const char *what)
{
	fake_pci_io_error(p->hba->pci, "AHCI port %u: %s", p->index, what);
}

static UINT64 after(UINT64 start, UINT64 ns)
{
	return ns == FAKE_AHCI_NEVER || start > FAKE_AHCI_NEVER - ns ? FAKE_AHCI_NEVER : start + ns;
}

static UINT64 address(struct fake_ahci *a, UINT32 low, UINT32 high)
{
	/* Without S64A the upper halves do not exist: a driver's high bits are lost. */
	return low | (a->cap & CAP_S64A ? (UINT64)high << 32 : 0);
}

/* ---- Data movement through the PRDT (4.2.3.3) ---- */

struct prd {
	UINT32 dba, dbau, reserved, dbc;
};

static struct prd prd_at(const struct fake_ahci_xfer *x, UINT32 i)
{
	struct prd e;

	memcpy(&e, (const UINT8 *)x->prdt + i * PRD_BYTES, sizeof(e));
	return e;
}

UINT64 fake_ahci_prdt_bytes(const struct fake_ahci_xfer *x)
{
	UINT64 total = 0;

	for (UINT32 i = 0; i < x->prdtl; i++)
		total += (prd_at(x, i).dbc & 0x3fffff) + 1;
	return total;
}

static bool move(struct fake_ahci_xfer *x, UINT8 *buf, UINT32 bytes, bool to_host)
{
	struct fake_ahci *a = x->port->hba;
	UINT64 start = 0;

	for (UINT32 i = 0; i < x->prdtl && bytes; i++) {
		struct prd e = prd_at(x, i);
		UINT64 len = (e.dbc & 0x3fffff) + 1, off;
		UINT32 n;
		UINT8 *mem;

		if (x->done >= start + len) {
			start += len;
			continue;
		}
		off = x->done - start;
		n = (UINT32)MIN(len - off, (UINT64)bytes);
		mem = fake_pci_io_dma(a->pci, address(a, e.dba, e.dbau) + off, n, to_host);
		if (!mem) {
			x->bus_error = true;
			return false;
		}
		if (to_host)
			memcpy(mem, buf, n);
		else
			memcpy(buf, mem, n);
		buf += n;
		bytes -= n;
		x->done += n;
		start += len;
	}
	if (bytes) {
		violation(x->port, "the PRDT is shorter than the transfer");
		x->bus_error = true;
	}
	return !bytes;
}

bool fake_ahci_to_host(struct fake_ahci_xfer *x, const void *src, UINT32 bytes)
{
	return move(x, (UINT8 *)src, bytes, true);
}

bool fake_ahci_from_host(struct fake_ahci_xfer *x, void *dst, UINT32 bytes)
{
	return move(x, dst, bytes, false);
}

/* ---- Ports ---- */

/* A D2H Register FIS into the received-FIS area, where the driver may look. */
static void put_d2h(struct fake_ahci_port *p, UINT8 status, UINT8 error, UINT32 sig)
{
	struct fake_ahci *a = p->hba;
	UINT8 *rfis;

	if (!(p->cmd & CMD_FRE))
		return;
	rfis = fake_pci_io_dma(a->pci, address(a, p->fb, p->fbu) + RFIS_D2H, 20, true);
	if (!rfis)
		return;
	memset(rfis, 0, 20);
	rfis[0] = FIS_D2H;
	rfis[1] = 0x40; /* I: interrupt */
	rfis[2] = status;
	rfis[3] = error;
	rfis[4] = (UINT8)(sig >> 8);
	rfis[5] = (UINT8)(sig >> 16);
	rfis[6] = (UINT8)(sig >> 24);
	rfis[12] = (UINT8)sig;
}

static void link_down(struct fake_ahci_port *p)
{
	p->ssts = 0;
	p->tfd = TFD_NO_DEVICE;
	p->sig = 0xffffffff;
	p->link_training = p->fis_pending = p->running = p->abandoned = false;
}

/* COMRESET or power-on: the link trains again and the device resets. */
static void comreset(struct fake_ahci_port *p)
{
	p->comresets++;
	link_down(p);
	if (p->device == FAKE_AHCI_EMPTY)
		return;
	p->ssts = SSTS_PRESENT;
	p->link_training = true;
	p->link_at = after(test_now_ns(), p->link_ns);
	fake_ahci_device_reset(p);
}

static void run_commands(struct fake_ahci_port *p);

/* What time has brought: the link, the device's first FIS, a command's end. */
static void settle(struct fake_ahci_port *p)
{
	UINT64 now = test_now_ns();

	if (p->link_training && now >= p->link_at) {
		p->link_training = false;
		p->ssts = SSTS_UP;
		p->tfd = TFD_BSY;
		p->fis_pending = true;
		p->ready_at = after(p->link_at, p->ready_ns);
	}
	/* The HBA takes the FIS (and fills PxSIG and PxTFD) only once FIS reception is on. */
	if (p->fis_pending && now >= p->ready_at && (p->cmd & CMD_FRE)) {
		p->fis_pending = false;
		p->tfd = fake_ahci_ready_status(p);
		p->sig = fake_ahci_signature(p);
		p->is |= IS_DHRS;
		put_d2h(p, (UINT8)p->tfd, 0, p->sig);
	}
	if (p->running && now >= p->done_at) {
		p->running = false;
		if (!p->abandoned)
			run_commands(p);
		else /* the device finished a command the HBA gave up on: idle again */
			p->tfd = fake_ahci_ready_status(p);
		p->abandoned = false;
	}
}

/* Takes the port's fault if it hits this command. */
static enum fake_ahci_fault_kind take_fault(struct fake_ahci_port *p, const UINT8 *fis,
					    const UINT8 *cdb)
{
	struct fake_ahci_fault *f = &p->fault;
	enum fake_ahci_fault_kind kind = f->kind;

	if (kind == FAKE_AHCI_FAULT_NONE || fis[2] != f->command ||
	    (f->cdb && (!cdb || cdb[0] != f->cdb_op)))
		return FAKE_AHCI_FAULT_NONE;
	if (f->times && --f->times == 0)
		f->kind = FAKE_AHCI_FAULT_NONE;
	return kind;
}

static struct fake_ahci_status injected_error(struct fake_ahci_port *p, const UINT8 *cdb)
{
	if (!cdb)
		return (struct fake_ahci_status){FAKE_ATA_DRDY | FAKE_ATA_ERR, FAKE_ATA_ABRT};
	/* A packet fails with CHECK CONDITION: HARDWARE ERROR. */
	p->cd.key = 0x4;
	p->cd.asc = 0x44; /* internal target failure */
	p->cd.ascq = 0;
	return (struct fake_ahci_status){FAKE_ATA_DRDY | FAKE_ATA_ERR, 0x4 << 4};
}

static void check_command(struct fake_ahci_port *p, UINT16 flags, const UINT8 *cfis,
			  const struct fake_ahci_xfer *x)
{
	if ((flags & 0x1f) < 5)
		violation(p, "command FIS length (CFL) below 5 dwords");
	if (cfis[0] != FIS_H2D || !(cfis[1] & FIS_C))
		violation(p, "the command FIS is not a Register H2D FIS with C set");
	for (UINT32 i = 0; i < x->prdtl; i++) {
		struct prd e = prd_at(x, i);
		if (!(e.dbc & 1) || (e.dba & 1))
			violation(p, "a PRD with an odd byte count or address");
	}
}

/* Runs the command in slot; true when it completed without error (CI cleared). */
static bool execute_slot(struct fake_ahci_port *p, UINT32 slot)
{
	struct fake_ahci *a = p->hba;
	UINT8 *header = fake_pci_io_dma(a->pci, address(a, p->clb, p->clbu) + slot * HEADER_BYTES,
					HEADER_BYTES, true);
	UINT16 flags, prdtl;
	UINT32 ctba, ctbau;
	const UINT8 *table, *cdb;
	struct fake_ahci_xfer x = {.port = p};
	struct fake_ahci_status st;
	enum fake_ahci_fault_kind fault;

	if (!header)
		goto bus_error;
	memcpy(&flags, header, 2);
	memcpy(&prdtl, header + 2, 2);
	memcpy(&ctba, header + 8, 4);
	memcpy(&ctbau, header + 12, 4);
	table = fake_pci_io_dma(a->pci, address(a, ctba & ~0x7fu, ctbau),
				TABLE_PRDT + (UINTN)prdtl * PRD_BYTES, false);
	if (!table)
		goto bus_error;
	x.prdt = table + TABLE_PRDT;
	x.prdtl = prdtl;
	x.header_write = (flags & HEADER_W) != 0;
	cdb = flags & HEADER_A ? table + TABLE_ACMD : NULL;
	check_command(p, flags, table, &x);
	p->commands++;
	p->max_prdt = MAX(p->max_prdt, (UINT32)prdtl);
	fault = take_fault(p, table, cdb);
	if (fault == FAKE_AHCI_FAULT_HANG) {
		p->running = true;
		p->done_at = FAKE_AHCI_NEVER;
		p->tfd |= TFD_BSY;
		return false;
	}
	if (fault == FAKE_AHCI_FAULT_HOST_BUS)
		goto bus_error;
	if (fault == FAKE_AHCI_FAULT_ERROR || fault == FAKE_AHCI_FAULT_QUIET_ERROR)
		st = injected_error(p, cdb);
	else
		st = fake_ahci_device_command(p, table, cdb, &x);
	if (x.bus_error)
		goto bus_error;
	memcpy(header + 4, &x.done, 4); /* PRDBC */
	p->max_bytes = MAX(p->max_bytes, x.done);
	put_d2h(p, st.status, st.error, 0);
	p->tfd = (UINT32)st.error << 8 | st.status;
	p->is |= IS_DHRS;
	if ((st.status & FAKE_ATA_ERR) && fault != FAKE_AHCI_FAULT_QUIET_ERROR) {
		/* Task file error: the HBA stops; CI stays set until software clears ST. */
		p->errors++;
		p->is |= IS_TFES;
		return false;
	}
	p->ci &= ~(1u << slot);
	return true;

bus_error:
	p->errors++;
	p->is |= IS_HBFS;
	return false;
}

static void run_commands(struct fake_ahci_port *p)
{
	for (UINT32 slot = 0; slot < 32; slot++)
		if ((p->ci & (1u << slot)) && (p->cmd & CMD_ST) && !execute_slot(p, slot))
			return;
}

static void start_engine(struct fake_ahci_port *p)
{
	/* AHCI 1.3.1, 10.3.1: ST only with FRE on, the device idle and the list in place. */
	if (!(p->cmd & CMD_FR))
		violation(p, "ST set without FIS reception running");
	if (p->tfd & (TFD_BSY | TFD_DRQ))
		violation(p, "ST set while PxTFD shows BSY or DRQ");
	if (!p->clb && !p->clbu)
		violation(p, "ST set before PxCLB");
	p->cmd |= CMD_CR;
}

static void stop_engine(struct fake_ahci_port *p)
{
	p->ci = 0;
	p->sact = 0;
	/* A command still in the device keeps it busy (PxTFD.BSY) until it ends. */
	p->abandoned = p->running;
	p->cmd &= ~(0x1fu << 8); /* CCS */
	p->cmd &= ~CMD_CR;
}

static void override_busy(struct fake_ahci_port *p)
{
	if (!(p->hba->cap & CAP_SCLO))
		violation(p, "CLO set on an HBA without CAP.SCLO");
	else if (p->cmd & CMD_ST)
		violation(p, "CLO set while ST is set");
	else {
		p->tfd &= ~(TFD_BSY | TFD_DRQ);
		p->running = p->abandoned = false; /* whatever the device does, the HBA goes on */
	}
}

static void write_cmd(struct fake_ahci_port *p, UINT32 v)
{
	UINT32 old = p->cmd;

	p->cmd = (old & ~CMD_WRITABLE) | (v & CMD_WRITABLE);
	if ((v & CMD_SUD) && !(old & CMD_SUD) && (p->hba->cap & CAP_SSS))
		comreset(p); /* staggered spin-up: the link starts now */
	if ((v & CMD_FRE) && !(old & CMD_FRE)) {
		if (!p->fb && !p->fbu)
			violation(p, "FRE set before PxFB");
		p->cmd |= CMD_FR;
	} else if (!(v & CMD_FRE) && (old & CMD_FRE)) {
		if (v & CMD_ST)
			violation(p, "FRE cleared while ST is set");
		p->cmd &= ~CMD_FR;
	}
	if ((v & CMD_ST) && !(old & CMD_ST))
		start_engine(p);
	else if (!(v & CMD_ST) && (old & CMD_ST))
		stop_engine(p);
	if (v & CMD_CLO)
		override_busy(p);
}

static void write_ci(struct fake_ahci_port *p, UINT32 v)
{
	if (!(p->cmd & CMD_ST)) {
		violation(p, "PxCI written while ST is clear");
		return;
	}
	p->ci |= v;
	if (p->running)
		return;
	p->running = true;
	p->done_at = after(test_now_ns(), p->command_ns);
	p->tfd |= TFD_BSY;
	settle(p);
}

/* PxSCTL.DET (3.3.11, 10.4.2): 1 sends COMRESET for as long as it is held (the HBA shows no
 * device, PxTFD 7Fh), which must be at least 1 ms; back to 0, the link comes up again. The
 * field may only change while ST is clear. */
static void write_sctl(struct fake_ahci_port *p, UINT32 v)
{
	if ((v & 0xf) != (p->sctl & 0xf) && (p->cmd & CMD_ST))
		violation(p, "PxSCTL.DET written while ST is set");
	if ((p->sctl & 0xf) == 1 && (v & 0xf) == 0) {
		if (test_now_ns() - p->comreset_at < 1000000)
			violation(p, "COMRESET held for less than 1 ms");
		comreset(p);
	} else if ((v & 0xf) == 1 && (p->sctl & 0xf) != 1) {
		link_down(p);
		p->comreset_at = test_now_ns();
	}
	p->sctl = v;
}

static void check_address_write(struct fake_ahci_port *p, UINT32 running_bit, const char *what)
{
	if (p->cmd & running_bit)
		violation(p, what);
}

static void port_write(struct fake_ahci_port *p, UINT32 reg, UINT32 v)
{
	bool s64a = p->hba->cap & CAP_S64A;

	settle(p);
	if (!(p->hba->ghc & GHC_AE))
		violation(p, "port register written with GHC.AE clear");
	switch (reg) {
	case PxCLB:
	case PxCLBU:
		check_address_write(p, CMD_CR, "PxCLB written while the command list runs");
		if (reg == PxCLB)
			p->clb = v & ~0x3ffu;
		else
			p->clbu = s64a ? v : 0;
		break;
	case PxFB:
	case PxFBU:
		check_address_write(p, CMD_FR, "PxFB written while FIS reception runs");
		if (reg == PxFB)
			p->fb = v & ~0xffu;
		else
			p->fbu = s64a ? v : 0;
		break;
	case PxIS:
		p->is &= ~v;
		break;
	case PxIE:
		p->ie = v;
		break;
	case PxCMD:
		write_cmd(p, v);
		break;
	case PxSCTL:
		write_sctl(p, v);
		break;
	case PxSERR:
		p->serr &= ~v;
		break;
	case PxSACT:
		p->sact |= v;
		break;
	case PxCI:
		write_ci(p, v);
		break;
	default:
		violation(p, "write to a read-only or reserved port register");
	}
}

static UINT32 port_read(struct fake_ahci_port *p, UINT32 reg)
{
	settle(p);
	switch (reg) {
	case PxCLB:
		return p->clb;
	case PxCLBU:
		return p->clbu;
	case PxFB:
		return p->fb;
	case PxFBU:
		return p->fbu;
	case PxIS:
		return p->is;
	case PxIE:
		return p->ie;
	case PxCMD:
		return p->cmd | (p->engine_stuck ? CMD_CR | CMD_FR : 0);
	case PxTFD:
		return p->tfd;
	case PxSIG:
		return p->sig;
	case PxSSTS:
		return p->ssts;
	case PxSCTL:
		return p->sctl;
	case PxSERR:
		return p->serr;
	case PxSACT:
		return p->sact;
	case PxCI:
		return p->ci;
	default:
		return 0;
	}
}

/* ---- The HBA ---- */

static void port_clear(struct fake_ahci_port *p)
{
	p->clb = p->clbu = p->fb = p->fbu = 0;
	p->is = p->ie = p->serr = p->sact = p->ci = p->sctl = 0;
	p->cmd = 0;
	p->running = p->abandoned = false;
}

/* GHC.HR (10.4.3): every port back to its reset state, links trained again unless the
 * HBA spins devices up one by one; AE back to 0. */
static void hba_reset(struct fake_ahci *a)
{
	a->resets++;
	a->ghc = GHC_HR;
	a->reset_at = after(test_now_ns(), a->reset_ns);
	for (UINT32 i = 0; i < FAKE_AHCI_PORTS; i++) {
		struct fake_ahci_port *p = &a->ports[i];

		port_clear(p);
		if (!(a->cap & CAP_SSS)) {
			comreset(p);
		} else {
			link_down(p); /* until software spins the device up (PxCMD.SUD) */
			if (p->device != FAKE_AHCI_EMPTY)
				fake_ahci_device_reset(p);
		}
	}
}

static UINT32 ghc_read(struct fake_ahci *a)
{
	if ((a->ghc & GHC_HR) && test_now_ns() >= a->reset_at)
		a->ghc &= ~GHC_HR;
	return a->ghc;
}

static UINT32 is_read(struct fake_ahci *a)
{
	UINT32 is = 0;

	for (UINT32 i = 0; i < FAKE_AHCI_PORTS; i++)
		if (a->ports[i].is & a->ports[i].ie)
			is |= 1u << i;
	return is;
}

static struct fake_ahci_port *port_at(struct fake_ahci *a, UINT64 offset)
{
	UINT64 index = (offset - PORT_BASE) / PORT_SIZE;

	if (offset < PORT_BASE || index >= FAKE_AHCI_PORTS || !(a->pi & (1u << index)))
		return NULL;
	return &a->ports[index];
}

static bool dword_access(struct fake_ahci *a, UINT64 offset, UINT32 width)
{
	if (width == 4 && !(offset & 3))
		return true;
	fake_pci_io_error(a->pci, "AHCI register access that is not one aligned dword");
	return false;
}

static UINT64 abar_read(void *device, UINT64 offset, UINT32 width)
{
	struct fake_ahci *a = device;
	struct fake_ahci_port *p;

	if (!dword_access(a, offset, width))
		return 0;
	if (offset >= PORT_BASE) {
		p = port_at(a, offset);
		if (!p) {
			fake_pci_io_error(a->pci, "AHCI read of a port PI does not list");
			return 0;
		}
		return port_read(p, (UINT32)((offset - PORT_BASE) % PORT_SIZE));
	}
	switch (offset) {
	case CAP:
		return a->cap;
	case GHC:
		return ghc_read(a);
	case IS:
		return is_read(a);
	case PI:
		return a->pi;
	case VS:
		return a->vs;
	default:
		return 0;
	}
}

static void abar_write(void *device, UINT64 offset, UINT32 width, UINT64 value)
{
	struct fake_ahci *a = device;
	struct fake_ahci_port *p;

	if (!dword_access(a, offset, width))
		return;
	if (offset >= PORT_BASE) {
		p = port_at(a, offset);
		if (p)
			port_write(p, (UINT32)((offset - PORT_BASE) % PORT_SIZE), (UINT32)value);
		else
			fake_pci_io_error(a->pci, "AHCI write to a port PI does not list");
		return;
	}
	if (offset == GHC && (value & GHC_HR))
		hba_reset(a);
	else if (offset == GHC)
		a->ghc = (a->ghc & GHC_HR) | ((UINT32)value & (GHC_AE | GHC_IE));
	else if (offset != IS)
		fake_pci_io_error(a->pci, "AHCI write to a read-only global register");
}

struct fake_ahci *fake_ahci_create(UINT8 pci_dev, UINT32 ports_implemented)
{
	const struct fake_pci_io_config config = {
	    .vendor = 0x8086,
	    .device = 0x2922,
	    .class_code = 0x010601,
	    .dev = pci_dev,
	    .fn = 2,
	    .supports = EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY |
			EFI_PCI_IO_ATTRIBUTE_BUS_MASTER | EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE,
	};
	struct fake_ahci *a = calloc(1, sizeof(*a));
	struct fake_pci_bar bar = {BAR_SIZE, false, abar_read, abar_write, a};

	if (!a)
		return NULL;
	a->pci = fake_pci_io_create(&config);
	if (!a->pci) {
		free(a);
		return NULL;
	}
	fake_pci_io_set_bar(a->pci, ABAR, &bar);
	a->cap = CAP_S64A | CAP_SCLO | 31u << CAP_NCS_SHIFT | 31u;
	a->pi = ports_implemented;
	a->vs = 0x00010301;
	for (UINT32 i = 0; i < FAKE_AHCI_PORTS; i++) {
		a->ports[i].hba = a;
		a->ports[i].index = (UINT8)i;
		comreset(&a->ports[i]);
	}
	return a;
}

void fake_ahci_destroy(struct fake_ahci *a)
{
	if (!a)
		return;
	fake_pci_io_destroy(a->pci);
	free(a);
}

static struct fake_ahci_port *attach(struct fake_ahci *a, UINT8 index, enum fake_ahci_device device)
{
	struct fake_ahci_port *p = &a->ports[index];

	p->device = device;
	if (a->cap & CAP_SSS)
		fake_ahci_device_reset(p); /* the link waits for PxCMD.SUD */
	else
		comreset(p);
	return p;
}

void fake_ahci_attach_disk(struct fake_ahci *a, UINT8 port, const struct fake_ahci_disk *disk)
{
	struct fake_ahci_port *p = &a->ports[port];

	p->disk = *disk;
	if (!p->disk.sector_size)
		p->disk.sector_size = 512;
	fake_ahci_build_identify(p);
	attach(a, port, FAKE_AHCI_DISK);
}

void fake_ahci_attach_cd(struct fake_ahci *a, UINT8 port, const struct fake_ahci_cd *cd)
{
	a->ports[port].cd = *cd;
	attach(a, port, FAKE_AHCI_CDROM);
}

void fake_ahci_wedge(struct fake_ahci_port *p)
{
	p->tfd |= TFD_BSY;
	p->running = p->abandoned = true;
	p->done_at = FAKE_AHCI_NEVER;
}

void fake_ahci_attach_other(struct fake_ahci *a, UINT8 port, UINT32 signature)
{
	a->ports[port].other_signature = signature;
	attach(a, port, FAKE_AHCI_OTHER);
}
