/* The user-mode network behind the hosted NIC: libslirp (the library of QEMU's `-netdev
 * user`), with QEMU's addresses: the network 10.0.2.0/24, the host (gateway, TFTP server)
 * 10.0.2.2, the name server 10.0.2.3, DHCP leases from 10.0.2.15. Guest connections leave
 * through the host's sockets (10.0.2.2 is the host's 127.0.0.1).
 *
 * Nothing runs in the background: the NIC calls net_slirp_poll (from its SNP calls and a
 * periodic timer), which polls slirp's sockets without waiting and runs its timers. Under
 * loss=PERCENT a seeded generator drops that share of the frames in each direction, the
 * same frames on every run with the same seed and traffic. */
#define LOG_PREFIX "net: "
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <arpa/inet.h>
#include <slirp/libslirp.h>

#include "net.h"
#include <ember/core/log.h>
#include <ember/core/platform.h>

/* One of slirp's timers (it asks for them with timer_new). */
struct net_timer {
	SlirpTimerCb callback;
	void *opaque;
	INT64 expire_ms;
	bool armed;
	struct net_timer *next;
};

static struct {
	Slirp *slirp;
	net_deliver_fn deliver;
	struct pollfd *fds; /* filled by slirp_pollfds_fill at each poll */
	UINT32 fd_count, fd_capacity;
	struct net_timer *timers;
	UINT64 random; /* the loss generator's state */
} net;

/* ---- Loss ---- */

/* splitmix64: a full-period generator whose every seed (0 included) is usable. */
static UINT64 net_random(void)
{
	UINT64 z = (net.random += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static bool net_frame_lost(void)
{
	return net_options.loss && net_random() % 100 < net_options.loss;
}

/* ---- Callbacks from slirp ---- */

static ssize_t net_send_packet(const void *frame, size_t length, void *opaque)
{
	if (!net_frame_lost())
		net.deliver(frame, length);
	return (ssize_t)length;
}

static void net_guest_error(const char *message, void *opaque)
{
	log_debug("slirp: %s\n", message);
}

static int64_t net_clock_ns(void *opaque)
{
	return (int64_t)plat_monotonic_ns();
}

static void *net_timer_new(SlirpTimerCb callback, void *callback_opaque, void *opaque)
{
	struct net_timer *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->callback = callback;
	t->opaque = callback_opaque;
	t->next = net.timers;
	net.timers = t;
	return t;
}

static void net_timer_free(void *timer, void *opaque)
{
	for (struct net_timer **p = &net.timers; *p; p = &(*p)->next)
		if (*p == timer) {
			*p = (*p)->next;
			free(timer);
			return;
		}
}

static void net_timer_mod(void *timer, int64_t expire_ms, void *opaque)
{
	struct net_timer *t = timer;

	t->expire_ms = expire_ms;
	t->armed = true;
}

/* Sockets are polled afresh at every net_slirp_poll: nothing to keep. */
static void net_poll_fd_ignored(int fd, void *opaque)
{
}

static void net_notify(void *opaque)
{
}

static const SlirpCb net_callbacks = {
    .send_packet = net_send_packet,
    .guest_error = net_guest_error,
    .clock_get_ns = net_clock_ns,
    .timer_new = net_timer_new,
    .timer_free = net_timer_free,
    .timer_mod = net_timer_mod,
    .register_poll_fd = net_poll_fd_ignored,
    .unregister_poll_fd = net_poll_fd_ignored,
    .notify = net_notify,
};

/* ---- Polling ---- */

static int net_add_poll(int fd, int events, void *opaque)
{
	struct pollfd *p;

	if (net.fd_count == net.fd_capacity) {
		UINT32 capacity = net.fd_capacity ? 2 * net.fd_capacity : 16;
		p = realloc(net.fds, capacity * sizeof(*p));
		if (!p)
			return -1; /* slirp leaves a socket it got no index for alone */
		net.fds = p;
		net.fd_capacity = capacity;
	}
	p = &net.fds[net.fd_count];
	p->fd = fd;
	p->events = (short)((events & SLIRP_POLL_IN ? POLLIN : 0) |
			    (events & SLIRP_POLL_OUT ? POLLOUT : 0) |
			    (events & SLIRP_POLL_PRI ? POLLPRI : 0));
	p->revents = 0;
	return (int)net.fd_count++;
}

static int net_get_revents(int index, void *opaque)
{
	short r;

	if (index < 0 || (UINT32)index >= net.fd_count)
		return 0;
	r = net.fds[index].revents;
	return (r & POLLIN ? SLIRP_POLL_IN : 0) | (r & POLLOUT ? SLIRP_POLL_OUT : 0) |
	       (r & POLLPRI ? SLIRP_POLL_PRI : 0) |
	       (r & (POLLERR | POLLNVAL) ? SLIRP_POLL_ERR : 0) | (r & POLLHUP ? SLIRP_POLL_HUP : 0);
}

/* Runs the timers that are due; a callback may re-arm its own timer. */
static void net_run_timers(void)
{
	INT64 now_ms = (INT64)(plat_monotonic_ns() / 1000000);
	struct net_timer *t, *next;

	for (t = net.timers; t; t = next) {
		next = t->next; /* the callback may free its timer */
		if (t->armed && t->expire_ms <= now_ms) {
			t->armed = false;
			t->callback(t->opaque);
		}
	}
}

void net_slirp_poll(void)
{
	uint32_t timeout_ms = 0;
	int ready;

	net.fd_count = 0;
	slirp_pollfds_fill(net.slirp, &timeout_ms, net_add_poll, NULL);
	ready = net.fd_count ? poll(net.fds, net.fd_count, 0) : 0;
	slirp_pollfds_poll(net.slirp, ready < 0, net_get_revents, NULL);
	net_run_timers();
}

void net_slirp_send(const UINT8 *frame, size_t length)
{
	if (!net_frame_lost())
		slirp_input(net.slirp, frame, (int)length);
}

/* ---- Start ---- */

static struct in_addr net_address(const char *text)
{
	struct in_addr a;

	inet_pton(AF_INET, text, &a);
	return a;
}

bool net_slirp_start(net_deliver_fn deliver)
{
	SlirpConfig config = {
	    .version = 4,
	    .in_enabled = true,
	    .vnetwork = net_address("10.0.2.0"),
	    .vnetmask = net_address("255.255.255.0"),
	    .vhost = net_address("10.0.2.2"),
	    .vdhcp_start = net_address("10.0.2.15"),
	    .vnameserver = net_address("10.0.2.3"),
	    .tftp_path = net_options.tftp,
	    .bootfile = net_options.bootfile,
	    .if_mtu = NET_MTU,
	    .if_mru = NET_MTU,
	};

	net.deliver = deliver;
	net.random = net_options.seed;
	net.slirp = slirp_new(&config, &net_callbacks, NULL);
	if (!net.slirp) {
		fprintf(stderr, "ember-run: --net: libslirp %s cannot start the network\n",
			slirp_version_string());
		return false;
	}
	return true;
}
