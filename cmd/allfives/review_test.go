package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allfives/allfives/api"
	"github.com/allfives/allfives/domain/analysis"
	"github.com/allfives/allfives/domain/app/reviews"
)

// cliReviewOptions is a small budget for the tests, and the flags that ask the CLI for it.
var (
	cliReviewOptions = analysis.Options{Rollouts: 40, HindsightNodes: 300, ParRuns: 1, ParRollouts: 20}
	cliReviewFlags   = []string{"--rollouts", "40", "--hindsight-nodes", "300", "--par-runs", "1", "--par-rollouts", "20"}
)

// apiReview asks a real server over the fixture's database for a match's review, with
// cliReviewOptions, and returns the body of its 200.
func apiReview(t *testing.T, f *replayFixture, id string) []byte {
	t.Helper()
	rev := reviews.New(reviews.Config{Store: f.store, Matches: f.svc, Options: cliReviewOptions})
	t.Cleanup(rev.Close)
	srv := httptest.NewServer(api.New(api.Config{Service: f.svc, Reviews: rev, Ready: f.store}))
	t.Cleanup(srv.Close)
	url := srv.URL + "/api/v1/matches/" + id + "/review"
	resp, err := http.Post(url, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// 202 queues it; 200 answers one already stored under the same budgets (exportOf's).
	if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusOK {
		t.Fatalf("POST review: %d", resp.StatusCode)
	}
	if err := rev.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	resp, err = http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET review: %d %v %s", resp.StatusCode, err, body)
	}
	return body
}

// reviewFile writes body to a file and runs allfives review on it with the test budget.
func reviewFile(t *testing.T, body []byte, flags ...string) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.json")
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
	args := append(append(append([]string{"review"}, cliReviewFlags...), flags...), path)
	var out bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, &out)
	return out.String(), err
}

// TestReviewCLIIsTheAPIsReview: allfives review --json on a finished match's export prints
// the very bytes the API stores and serves for it; the summary shows each seat's figures, by
// name, and the worst moves, from the same review.
func TestReviewCLIIsTheAPIsReview(t *testing.T) {
	f := newReplayFixture(t)
	export := exportOf(t, f, f.done)
	want := apiReview(t, f, f.done)
	got, err := reviewFile(t, export, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("review --json is not the API's review:\n%s\n%s", got, want)
	}
	rv := strictReviewOf(t, want)

	text, err := reviewFile(t, export)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"review of match " + f.done, "method: " + cliReviewOptions.Method(), "worst moves:"} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("the summary lacks %q:\n%s", line, text)
		}
	}
	for _, s := range rv.Seats {
		name := []string{"Ann", "Bob", "Cy"}[s.Seat]
		row := fmt.Sprintf("%d %s", s.Seat, name)
		if !strings.Contains(text, row) || !strings.Contains(text, fmt.Sprintf("%.1f", s.Accuracy)) || !strings.Contains(text, fmt.Sprintf("%.2f", s.MeanLoss)) {
			t.Errorf("the summary lacks seat %d's row (%s, %.1f, %.2f):\n%s", s.Seat, row, s.Accuracy, s.MeanLoss, text)
		}
	}
	worst := rv.Decisions[0]
	for _, d := range rv.Decisions {
		if d.Loss > worst.Loss {
			worst = d
		}
	}
	if !strings.Contains(text, fmt.Sprintf("seq %d, hand %d,", worst.Seq, worst.Hand)) {
		t.Errorf("the summary does not list the worst move, seq %d:\n%s", worst.Seq, text)
	}
}

// strictReviewOf decodes a review's JSON into the API's type, refusing unknown fields.
func strictReviewOf(t *testing.T, body []byte) api.Review {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var rv api.Review
	if err := dec.Decode(&rv); err != nil || len(rv.Decisions) == 0 {
		t.Fatalf("not a review with decisions (%v): %s", err, body)
	}
	return rv
}

// TestReviewCLIRefusesWhatCannotBeReviewed: a live match's export (no chain: its hands are
// secret), a tampered export, and no file at all are errors that say why.
func TestReviewCLIRefusesWhatCannotBeReviewed(t *testing.T) {
	f := newReplayFixture(t)
	if _, err := reviewFile(t, exportOf(t, f, f.live)); err == nil || !strings.Contains(err.Error(), "only a finished match's export") {
		t.Fatalf("live export: %v", err)
	}
	e := parseExport(t, exportOf(t, f, f.done))
	raw := e.Events[3]["raw_data"].(string)
	e.Events[3]["raw_data"] = strings.Replace(raw, "1", "2", 1)
	if _, err := reviewFile(t, e.bytes(t)); err == nil || !strings.Contains(err.Error(), "does not hold up") {
		t.Fatalf("tampered export: %v", err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"review"}, func(string) string { return "" }, &out); err == nil {
		t.Fatal("review with no file succeeded")
	}
}
