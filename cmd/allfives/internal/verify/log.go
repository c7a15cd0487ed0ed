package verify

import (
	"encoding/json"
	"errors"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// ErrNotAnExport is Log's answer to bytes that are not a JSON export of a match.
var ErrNotAnExport = errors.New("not a JSON export of a match: it needs a match with an id and its events")

// Log reads an export's match and its log as the chain commits to it (raw_data), for a
// command that reads a match from its export (allfives review). It runs verify's checks of
// the links, the chain and the payloads only; when one fails, events is nil and res holds
// the failed checks. Bytes that are no export are ErrNotAnExport.
func Log(body []byte) (view api.MatchView, events []domain.Event, res Result, err error) {
	var f exportFile
	if err := json.Unmarshal(body, &f); err != nil || json.Unmarshal(f.Match, &view) != nil || view.ID == "" || len(f.Events) == 0 {
		return view, nil, res, ErrNotAnExport
	}
	res.ID, res.Events = view.ID, len(f.Events)
	links, ok := chainLinks(&res, f.Events)
	if !ok {
		return view, nil, res, nil
	}
	if chain := audit.VerifyLinks(links); !chain.OK {
		res.add(audit.CheckHashChain, false, chain.FirstBadSeq, "seq %d: %s", chain.FirstBadSeq, chain.Detail)
	}
	log := payloads(&res, f.Events, links)
	if !res.OK() || log.Unreadable > 0 {
		return view, nil, res, nil
	}
	return view, log.Events, res, nil
}
