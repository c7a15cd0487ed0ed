package api_test

import (
	"net/http"

	"github.com/allfives/allfives/api"
)

// playerTicket asks for a ticket to the stream of the player whose key is key.
func (h *harness) playerTicket(key string) api.TicketResponse {
	h.t.Helper()
	r := h.do(http.MethodPost, "/api/v1/players/me/tickets", nil, auth(key)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("player ticket: %d %s", r.status, r.body)
	}
	var out api.TicketResponse
	r.decode(h.t, &out)
	return out
}

// seatTicket asks for a ticket to match id's stream with a seat's token or its player's key.
func (h *harness) seatTicket(id, cred string) api.SeatTicketResponse {
	h.t.Helper()
	r := h.do(http.MethodPost, "/api/v1/matches/"+id+"/tickets", nil, auth(cred)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("seat ticket: %d %s", r.status, r.body)
	}
	var out api.SeatTicketResponse
	r.decode(h.t, &out)
	return out
}
