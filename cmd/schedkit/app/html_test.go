package app

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestHTMLReport writes explain's --html report for the bundled manifests,
// checks that it is self-contained (nothing fetched) and, with Chromium
// installed, that it renders: a headless screenshot is taken and must show
// more than a blank page.
func TestHTMLReport(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if code, _, stderr := runCmd(t, "", "explain", "-f", bundled, "--html", page); code != exitUnschedulable {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{`<svg id="bars"`, `class="heat"`, "shop/checkout", "node(s) didn&#39;t match Pod&#39;s node affinity/selector"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Nothing is fetched: no src/href attributes, no URL but SVG's
	// namespace name.
	if m := regexp.MustCompile(`(?i)(src=|href=|url\(|https?://[^"]*)`).FindAllString(html, -1); len(m) > 0 {
		for _, s := range m {
			if s != "http://www.w3.org/2000/svg" {
				t.Errorf("report references %q", s)
			}
		}
	}

	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("chromium is not installed (apt-get install -y chromium): the report was checked as text only, not rendered")
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--window-size=1100,1600", "--screenshot="+shot, "file://"+page)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	bounds := img.Bounds()
	if bounds.Dx() < 1000 || bounds.Dy() < 1500 {
		t.Errorf("screenshot is %v", bounds)
	}
	// A rendered page has text, bars and heat cells: many colours, and
	// the bars' blue among them.
	colours := map[uint32]bool{}
	blue := false
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 3 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 3 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|b>>8] = true
			if r>>8 < 60 && g>>8 > 70 && g>>8 < 120 && b>>8 > 140 {
				blue = true
			}
		}
	}
	if len(colours) < 20 || !blue {
		t.Errorf("screenshot looks blank: %d colours, bar blue seen %v", len(colours), blue)
	}
	if os.Getenv("SCHEDKIT_KEEP_SCREENSHOT") != "" {
		data, _ := os.ReadFile(shot)
		os.WriteFile(os.Getenv("SCHEDKIT_KEEP_SCREENSHOT"), data, 0o644)
	}
}

// TestHTMLWhyNotAndLeaveOneOut: with --why-not the report shows the
// why-not table of the pod that fits nowhere and, for the placed pods,
// the leave-one-out table.
func TestHTMLWhyNotAndLeaveOneOut(t *testing.T) {
	page := filepath.Join(t.TempDir(), "report.html")
	if code, _, stderr := runCmd(t, "", "explain", "-f", bundled, "--why-not", "--html", page); code != exitUnschedulable {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{
		`<table class="whynot">`, "why not: ", "lower the request of cpu to 1 (from 6) <b>(cheapest)</b>",
		`<table class="loo">`, `<td class="warn">node-a1 (decided by NodeResourcesFit)</td>`, "weight 44 → node-a1",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestWhyNotTableAndJSON: --why-not adds the summary and the per-node
// changes to the table and "whyNot" to the JSON; leave-one-out is in the
// JSON of a placed pod.
func TestWhyNotTableAndJSON(t *testing.T) {
	code, out, stderr := runCmd(t, "", "explain", "-f", bundled, "--pod", "shop/checkout", "--why-not")
	if code != exitUnschedulable {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"  why not: node(s) didn't match Pod's node affinity/selector on 4 nodes, cpu exhausted on 2 nodes,",
		"  node-c1       requests     lower the request of cpu to 1 (from 6) (cheapest)",
		"  gpu-c1        tolerations  tolerate taint nvidia.com/gpu=present:NoSchedule",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, "", "explain", "-f", bundled, "--pod", "shop/checkout", "--why-not", "-o", "json")
	if !strings.Contains(out, `"whyNot":{`) || !strings.Contains(out, `"best":{`) {
		t.Errorf("JSON lacks whyNot:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "explain", "-f", bundled, "--pod", "shop/worker", "-o", "json")
	if !strings.Contains(out, `"leaveOneOut":[`) || !strings.Contains(out, `"flipWeight":44`) {
		t.Errorf("JSON lacks leaveOneOut:\n%s", out)
	}
}
