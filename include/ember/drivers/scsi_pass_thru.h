/* A front end for SCSI transports (virtio-scsi, and later USB mass storage ...): one struct
 * that carries EFI_EXT_SCSI_PASS_THRU_PROTOCOL and its Mode, checks every call as UEFI 2.10
 * section 15.7 requires, enumerates targets and LUNs, and builds and reads Scsi(target,lun)
 * device path nodes, so that a transport only moves checked commands. Targets are numbered
 * by the first two bytes of the spec's 16-byte Target (little-endian), the rest zero. */
#ifndef EMBER_SCSI_PASS_THRU_H
#define EMBER_SCSI_PASS_THRU_H

#include <stdbool.h>
#include <efi/protocol/ext_scsi_pass_thru.h>

#define SCSI_PASS_THRU_SIGNATURE 0x757274747073ULL /* "spttru" */

struct scsi_pass_thru;

/* What a transport implements. */
struct scsi_pass_thru_ops {
	/* Runs one command, already checked: the target and LUN exist, the CDB fits, the
	 * buffers of the direction (DataDirection) are there, aligned and no longer than
	 * max_transfer, the length of the unused direction is 0. Sets HostAdapterStatus,
	 * TargetStatus, SenseDataLength (what it copied) and the lengths it transferred, and
	 * returns PassThru's status. */
	EFI_STATUS (*execute)(struct scsi_pass_thru *pt, UINT16 target, UINT16 lun,
			      EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *packet);
	EFI_STATUS (*reset_channel)(struct scsi_pass_thru *pt);
	EFI_STATUS (*reset_target_lun)(struct scsi_pass_thru *pt, UINT16 target, UINT16 lun);
};

struct scsi_pass_thru {
	UINT64 signature;
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL protocol;
	EFI_EXT_SCSI_PASS_THRU_MODE mode; /* the transport sets AdapterId and IoAlign */
	const struct scsi_pass_thru_ops *ops;
	UINT16 max_target;   /* the highest target number */
	UINT16 max_lun;	     /* the highest LUN */
	UINT8 max_cdb;	     /* bytes of the longest CDB */
	bool bidirectional;  /* the transport moves data both ways in one command */
	UINT32 max_transfer; /* bytes per direction and command */
};

/* Sets up the protocol over ops: Mode says a physical and logical channel (not RAID),
 * blocking only; the caller fills the limits, AdapterId and IoAlign. */
void scsi_pass_thru_init(struct scsi_pass_thru *pt, const struct scsi_pass_thru_ops *ops);

/* The checks of PassThru in the order of 15.7's statuses: EFI_SUCCESS means "execute". */
EFI_STATUS scsi_pass_thru_check(struct scsi_pass_thru *pt, const UINT8 *target, UINT64 lun,
				EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *packet);

/* The device behind a protocol scsi_pass_thru_init set up, or NULL for a foreign one. */
struct scsi_pass_thru *scsi_pass_thru_from_protocol(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *protocol);

#endif
