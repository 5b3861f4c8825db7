/* The TFTP client's read (RFC 1350) with the option extension (RFC 2347), blksize
 * (RFC 2348) and tsize (RFC 2349). Pure: the caller sends what out holds, to the server's
 * port, feeds in what comes back and calls tftp_client_timeout when nothing does. */
#ifndef EMBER_NET_TFTP_H
#define EMBER_NET_TFTP_H

#include <ember/net/net.h>

#define TFTP_PORT 69
#define TFTP_RRQ 1
#define TFTP_WRQ 2
#define TFTP_DATA 3
#define TFTP_ACK 4
#define TFTP_ERROR 5
#define TFTP_OACK 6
#define TFTP_DEFAULT_BLKSIZE 512
#define TFTP_NAME_MAX 255
/* The block size asked for: what a 1500-byte Ethernet frame carries after the headers. */
#define TFTP_WANTED_BLKSIZE 1468
#define TFTP_OUT_MAX 320

enum tftp_state { TFTP_REQUESTED, TFTP_TRANSFERRING, TFTP_DONE, TFTP_FAILED };

enum tftp_event {
	TFTP_EV_NONE,	 /* nothing new (stray, foreign or duplicate packet) */
	TFTP_EV_OPTIONS, /* the server's OACK accepted: tsize/blksize known */
	TFTP_EV_DATA,	 /* data at offset: store it */
	TFTP_EV_DONE,	 /* the last data at offset: store it; the transfer is complete */
	TFTP_EV_FAILED,	 /* the transfer is over: error says why */
};

struct tftp_client {
	enum tftp_state state;
	uint16_t blksize; /* negotiated, 512 without an OACK */
	uint16_t asked;	  /* the blksize asked for: an OACK may lower it, never raise it */
	bool has_tsize;	  /* the server gave the size */
	uint64_t tsize;
	uint64_t blocks;	   /* data blocks received, wraps of the block number included */
	uint16_t server_port;	   /* the server's transfer ID, 0 until its first answer */
	uint8_t out[TFTP_OUT_MAX]; /* the last packet built (out_len bytes) */
	size_t out_len;
	bool send;	/* out is to be sent now */
	unsigned tries; /* sends of the current out packet */
	uint16_t error_code;
	char error[96]; /* why the transfer failed */
	/* Of the last TFTP_EV_DATA or TFTP_EV_DONE: */
	uint64_t offset;
	const uint8_t *data;
	size_t data_len;
};

/* Starts a read of name (octet mode, asking for blksize and tsize): the RRQ is in out, to
 * be sent to TFTP_PORT.
 * Returns false for an empty name, one longer than TFTP_NAME_MAX or with control
 * characters. */
bool tftp_client_start(struct tftp_client *c, const char *name);
/* The same asking for blksize (8..TFTP_WANTED_BLKSIZE; false for any other). */
bool tftp_client_start_sized(struct tftp_client *c, const char *name, uint16_t blksize);
/* Takes in a datagram from the server's src_port. After it, when send is set, out holds the
 * answer to send (an ACK, or an ERROR when the client gives up on a bad packet). Refused packets
 * (bad opcode, DATA longer than the block size, an OACK that is late, repeats an option, names one
 * not asked for or gives a value out of range) fail the transfer with an ERROR to the server;
 * packets from a port other than the server's are ignored. */
enum tftp_event tftp_client_input(struct tftp_client *c, uint16_t src_port, const uint8_t *p,
				  size_t len);
/* Nothing came in time: returns true (send set) when out should be sent again, false (and
 * FAILED, with an ERROR to send) once max_tries sends went unanswered. */
bool tftp_client_timeout(struct tftp_client *c, unsigned max_tries);
/* Ends the transfer from our side (e.g. the caller's buffer is too small): out holds an
 * ERROR with code and msg to send. */
void tftp_client_abort(struct tftp_client *c, uint16_t code, const char *msg);

#endif
