package verify

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain"
	"github.com/allfives/allfives/domain/audit"
)

// matchCheck compares the export's match with the one its events fold into, field by field,
// over the fields the events determine (determined): a field the server adds from elsewhere
// (the review's state, a rematch's id, rating changes, and any it gains later) is left out, so
// the check holds on every export the server makes. The first field that differs is named.
func matchCheck(res *Result, id string, exported json.RawMessage, log audit.LogRead) {
	// The export may be anyone's forgery: a fold that panics on it is a failed check, not a crash.
	defer func() {
		if p := recover(); p != nil {
			res.add("match", false, 0, "not checked: the events cannot be folded (%v)", p)
		}
	}()
	m, err := domain.Rebuild(id, log.Events)
	if err != nil || log.Unreadable > 0 {
		res.add("match", false, 0, "not checked: the events do not fold into a match")
		return
	}
	var got map[string]any
	if err := json.Unmarshal(exported, &got); err != nil {
		res.add("match", false, 0, "the match is not a JSON object: %v", err)
		return
	}
	var fold any
	if err := json.Unmarshal(wire(api.ToMatchView(m.View(viewerOf(got, len(m.Players()))))), &fold); err != nil {
		res.add("match", false, 0, "not checked: the folded match cannot be written: %v", err)
		return
	}
	shape := determined()
	if path, detail := shape.firstDiff("match", got, fold); path != "" {
		res.add("match", false, 0, "%s: %s", path, detail)
		return
	}
	left := ""
	if extra := shape.undetermined(got); len(extra) > 0 {
		left = "; not from the events, so not compared: " + strings.Join(extra, ", ")
	}
	res.add("match", true, 0, "the match is the one its %d events fold into: %s, scores %v%s", len(log.Events), m.Summary().Status, m.Summary().Scores, left)
}

// viewerOf is whom the export was read as: the seat (of seats) its "you" names, a seat's own
// view of its hand; else a spectator.
func viewerOf(match map[string]any, seats int) domain.Viewer {
	if you, ok := match["you"].(map[string]any); ok {
		if seat, ok := you["seat"].(float64); ok && seat >= 0 && seat < float64(seats) && seat == float64(int(seat)) {
			return domain.SeatViewer(int(seat))
		}
	}
	return domain.Spectator()
}

// determined is the shape of every field the events can determine: the match's view as
// api.ToMatchView writes a domain view with every field set.
var determined = sync.OnceValue(func() *shape {
	var v domain.MatchView
	fill(reflect.ValueOf(&v).Elem(), 0)
	sh, err := shapeOf(wire(api.ToMatchView(v)))
	if err != nil {
		panic("verify: the match view cannot be read back: " + err.Error())
	}
	return sh
})

// fill sets every exported field v reaches to a value that is not zero, so that no field is
// left out of the view as empty; a slice gets one element.
func fill(v reflect.Value, depth int) {
	if depth > 8 || !v.CanSet() {
		return
	}
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Unix(1, 0).UTC()))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), depth+1)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), depth+1)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	}
}
