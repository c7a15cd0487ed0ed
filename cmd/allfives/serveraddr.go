package main

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// serverHelp is the help of every flag that names a running server.
const serverHelp = "a running server: host:port (http is assumed) or a base URL like http://localhost:8080"

// serverURL reads a flag naming a running server, given either as host:port (":8080" is
// this machine) or as an http or https base URL, and returns the base URL without a trailing
// slash. bench and replay take both forms, so an address that works for one works for the
// other.
func serverURL(s string) (string, error) {
	bad := fmt.Errorf("%q is neither host:port nor an http or https URL like http://localhost:8080", s)
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return "", bad
		}
		if _, err := portOf(u.Host); err != nil && u.Port() != "" {
			return "", bad
		}
		return strings.TrimRight(u.Scheme+"://"+u.Host+u.EscapedPath(), "/"), nil
	}
	host, err := portOf(s)
	if err != nil {
		return "", bad
	}
	_, port, _ := net.SplitHostPort(s)
	return "http://" + net.JoinHostPort(host, port), nil
}

// portOf checks that hostport is host:port with a port from 1 to 65535 and returns its host,
// localhost when it is empty.
func portOf(hostport string) (string, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", err
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("bad port %q", port)
	}
	if host == "" {
		host = "localhost"
	}
	return host, nil
}
