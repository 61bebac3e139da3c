// The same short tour in every client library (clients/*/examples): sign in, scan the target,
// wait for the scan, page through its findings, triage one, export CSV, verify a webhook
// delivery. Prints one JSON line of what it saw. Settings from the environment: VULNSCAN_URL,
// VULNSCAN_EMAIL, VULNSCAN_PASSWORD, TARGET, PORTS, WEBHOOK_FILE (a received delivery:
// {"body": "...", "headers": {...}}), WEBHOOK_SECRET.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"time"

	vulnscan "github.com/vulnscan/vulnscan/clients/go"
)

func env(name string) string {
	v := os.Getenv(name)
	if v == "" {
		log.Fatalf("%s is not set", name)
	}
	return v
}

func main() {
	ctx := context.Background()
	c, err := vulnscan.SignIn(ctx, env("VULNSCAN_URL"), env("VULNSCAN_EMAIL"), env("VULNSCAN_PASSWORD"), "")
	if err != nil {
		log.Fatal(err)
	}

	ports, quick := env("PORTS"), vulnscan.CreateScanJSONBodyScanTypeQuick
	created, err := c.CreateScanWithResponse(ctx, vulnscan.CreateScanJSONRequestBody{Target: env("TARGET"), Ports: &ports, ScanType: &quick, Authorized: true})
	if err := vulnscan.Check(created, err); err != nil {
		log.Fatal(err)
	}
	scanID, status := created.JSON201.Id, string(created.JSON201.Status)
	for status != "completed" && status != "failed" && status != "cancelled" {
		time.Sleep(time.Second)
		got, err := c.GetScanWithResponse(ctx, scanID)
		if err := vulnscan.Check(got, err); err != nil {
			log.Fatal(err)
		}
		status = string(got.JSON200.Status)
	}

	// Two per page, so a handful of findings takes several pages.
	var ids []string
	err = vulnscan.Paginate(ctx, func(ctx context.Context, page int, cursor string) (vulnscan.PageInfo, error) {
		perPage := 2
		params := &vulnscan.ListFindingsParams{ScanId: &scanID, PerPage: &perPage}
		if cursor != "" {
			params.Cursor = &cursor
		} else {
			params.Page = &page
		}
		res, err := c.ListFindingsWithResponse(ctx, params)
		if err := vulnscan.Check(res, err); err != nil {
			return vulnscan.PageInfo{}, err
		}
		for _, f := range res.JSON200.Items {
			ids = append(ids, f.Id)
		}
		return vulnscan.PageInfo{Page: res.JSON200.Page, Pages: res.JSON200.Pages, Items: len(res.JSON200.Items), NextCursor: res.JSON200.NextCursor}, nil
	})
	if err != nil {
		log.Fatal(err)
	}

	inProgress := vulnscan.UpdateFindingJSONBodyStatusInProgress
	updated, err := c.UpdateFindingWithResponse(ctx, ids[0], vulnscan.UpdateFindingJSONRequestBody{Status: &inProgress})
	if err := vulnscan.Check(updated, err); err != nil {
		log.Fatal(err)
	}

	csv := vulnscan.Csv
	exported, err := c.ExportFindingsWithResponse(ctx, &vulnscan.ExportFindingsParams{Format: &csv, ScanId: &scanID})
	if err := vulnscan.Check(exported, err); err != nil {
		log.Fatal(err)
	}

	notFound := ""
	missing, err := c.GetFindingWithResponse(ctx, "finding_does_not_exist")
	var apiErr *vulnscan.APIError
	if errors.As(vulnscan.Check(missing, err), &apiErr) {
		notFound = apiErr.ErrorCode
	}

	raw, err := os.ReadFile(env("WEBHOOK_FILE"))
	if err != nil {
		log.Fatal(err)
	}
	var delivery struct {
		Body    string            `json:"body"`
		Headers map[string]string `json:"headers"`
	}
	if err := json.Unmarshal(raw, &delivery); err != nil {
		log.Fatal(err)
	}
	header := http.Header{}
	for k, v := range delivery.Headers {
		header.Set(k, v)
	}
	verified, err := vulnscan.VerifyWebhook([]byte(delivery.Body), header, env("WEBHOOK_SECRET"), time.Hour, time.Now())
	if err != nil {
		log.Fatal(err)
	}
	tampered := "accepted"
	if _, err := vulnscan.VerifyWebhook([]byte(delivery.Body+" "), header, env("WEBHOOK_SECRET"), time.Hour, time.Now()); errors.Is(err, vulnscan.ErrWebhookSignature) {
		tampered = "refused"
	}

	out, _ := json.Marshal(map[string]any{
		"language":  "go",
		"scan_id":   scanID,
		"status":    status,
		"findings":  len(ids),
		"updated":   map[string]string{"id": updated.JSON200.Id, "status": string(updated.JSON200.Status)},
		"csv_lines": len(strings.Split(strings.TrimSpace(string(exported.Body)), "\n")),
		"not_found": notFound,
		"webhook":   map[string]string{"id": verified.ID, "event": verified.Event, "tampered": tampered},
	})
	fmt.Println(string(out))
}
