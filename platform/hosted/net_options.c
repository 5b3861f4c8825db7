/* `--net user[,tftp=DIR][,bootfile=NAME][,loss=PERCENT][,seed=N][,mac=XX:XX:XX:XX:XX:XX]`:
 * the options of the hosted network, checked whole before anything starts (a bad one ends
 * ember-run with status 2 and says which). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hosted.h"
#include "net.h"

/* QEMU's default, so guests see the address they see under QEMU's user network. */
struct net_options net_options = {.seed = 1, .mac = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56}};

static _Noreturn void net_option_error(const char *what, const char *value)
{
	fprintf(stderr, "ember-run: --net: %s '%s'\nTry 'ember-run --help'.\n", what, value);
	exit(2);
}

/* A decimal number of at most max, the whole of text. */
static bool parse_number(const char *text, UINT64 max, UINT64 *value)
{
	UINT64 v = 0;
	const char *c = text;

	for (; *c >= '0' && *c <= '9'; c++) {
		if (v > (max - (UINT64)(*c - '0')) / 10)
			return false; /* checked at every digit: nothing wraps */
		v = v * 10 + (UINT64)(*c - '0');
	}
	*value = v;
	return c > text && !*c;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "52:54:00:12:34:56": six pairs of hex digits; a unicast address (a NIC's own). */
static bool parse_mac(const char *text, UINT8 mac[NET_MAC_SIZE])
{
	if (strlen(text) != 3 * NET_MAC_SIZE - 1)
		return false;
	for (int i = 0; i < NET_MAC_SIZE; i++) {
		int hi = hex_digit(text[3 * i]), lo = hex_digit(text[3 * i + 1]);
		if (hi < 0 || lo < 0 || (i < NET_MAC_SIZE - 1 && text[3 * i + 2] != ':'))
			return false;
		mac[i] = (UINT8)(hi << 4 | lo);
	}
	return !(mac[0] & 1);
}

/* tftp=DIR: an existing directory, kept as an absolute path (libslirp joins names to it). */
static const char *tftp_directory(const char *dir)
{
	char *real = realpath(dir, NULL);
	struct stat st;

	if (!real || stat(real, &st) || !S_ISDIR(st.st_mode))
		net_option_error("tftp= is not a directory:", dir);
	return real;
}

static void net_option(char *item)
{
	char *value = strchr(item, '=');
	UINT64 n;

	if (!value)
		net_option_error("unknown option", item);
	*value++ = 0;
	if (!strcmp(item, "tftp")) {
		net_options.tftp = tftp_directory(value);
	} else if (!strcmp(item, "bootfile")) {
		if (!*value)
			net_option_error("bootfile= wants a file name, not", value);
		net_options.bootfile = value;
	} else if (!strcmp(item, "loss")) {
		if (!parse_number(value, 100, &n))
			net_option_error("loss= wants a percentage from 0 to 100, not", value);
		net_options.loss = (UINT32)n;
	} else if (!strcmp(item, "seed")) {
		if (!parse_number(value, UINT64_MAX, &net_options.seed))
			net_option_error("seed= wants a decimal number, not", value);
	} else if (!strcmp(item, "mac")) {
		if (!parse_mac(value, net_options.mac))
			net_option_error("mac= wants a unicast XX:XX:XX:XX:XX:XX, not", value);
	} else {
		net_option_error("unknown option", item);
	}
}

void hosted_net_add(const char *spec)
{
	char *copy = strdup(spec), *item, *rest;

	if (!copy)
		exit(2);
	if (net_options.enabled)
		net_option_error("given twice:", spec);
	item = strtok_r(copy, ",", &rest);
	if (!item || strcmp(item, "user"))
		net_option_error("only the user network is there; want 'user', not", spec);
	while ((item = strtok_r(NULL, ",", &rest)))
		net_option(item);
	net_options.enabled = true; /* copy stays: the options point into it */
}
