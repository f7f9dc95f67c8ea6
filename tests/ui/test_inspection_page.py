"""The inspection page, driven as an inspector would: type readings, watch the verdicts, save,
reopen, re-inspect, print the certificate; bad typing shows a message, never a traceback."""
from __future__ import annotations

import subprocess
import unicodedata

import pytest
from PySide6.QtCore import Qt

from referee_app import i18n
from referee_app.core.inspection import wording as fmt
from referee_app.core.inspection.store import InspectionStore
from referee_app.ui.inspection.page import InspectionPage
from support.kbcopy import installed
from support.gui import shown, type_text

SPECS = installed().equipment


@pytest.fixture
def page(qtbot, user_dirs, monkeypatch):
    monkeypatch.delenv("CARROM_REFEREE_DATABASE", raising=False)
    i18n.set_language("en")
    yield shown(qtbot, InspectionPage(installed()), (1400, 900))
    i18n.set_language("en")


def replace_text(widget, text: str) -> None:
    widget.clear()
    type_text(widget, text)


def choose(combo, data) -> None:
    combo.setCurrentIndex(combo.findData(data))


def row(page, name):
    return page.current_form().rows[name]


def pdf_text(path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(unicodedata.normalize("NFKC", out).split())


def test_an_inspection_from_typing_to_certificate(page, qtbot, tmp_path):
    page.set_item("striker")
    diameter, weight, metal = row(page, "diameter"), row(page, "weight"), row(page, "metal_visible")

    type_text(diameter.input, "4,2")
    assert diameter.verdict.text().startswith(fmt.FAIL_MARK) and "too large" in diameter.verdict.text()
    assert diameter.verdict.property("state") == "fail" and diameter.input.property("state") == "fail"
    type_text(weight.input, "14.2")
    assert weight.verdict.text().startswith(fmt.OK_MARK) and weight.verdict.property("state") == "ok"
    choose(metal.input, False)
    assert metal.verdict.text().startswith(fmt.OK_MARK)
    assert "NOT COMPLIANT" in page.overall.text()

    type_text(page.label_edit, "striker of Hélène Rossi")
    type_text(page.inspector_edit, "Élodie Mercier")
    type_text(page.notes_edit, "Bord ébréché")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "Saved as inspection no. 1" in page.status.text()
    assert page.history.rowCount() == 1 and fmt.FAIL_MARK in page.history.item(0, 4).text()

    # Reopen: a fresh form, then the saved inspection back in it.
    qtbot.mouseClick(page.new_button, Qt.MouseButton.LeftButton)
    assert diameter.input.text() == "" and page.label_edit.text() == ""
    page.history.selectRow(0)
    qtbot.mouseClick(page.reopen_button, Qt.MouseButton.LeftButton)
    assert diameter.input.text() == "4.2" and weight.input.text() == "14.2"
    assert page.label_edit.text() == "striker of Hélène Rossi" and page.notes_edit.toPlainText() == "Bord ébréché"
    assert "too large" in diameter.verdict.text() and "no. 1" in page.banner.text()

    # Re-inspect: the failed diameter is to be measured again, the rest is kept.
    qtbot.mouseClick(page.reinspect_button, Qt.MouseButton.LeftButton)
    assert diameter.input.text() == "" and "measure again" in diameter.verdict.text()
    assert weight.input.text() == "14.2" and metal.input.currentData() is False
    assert page.banner.isVisible() and "Re-inspection of no. 1" in page.banner.text()
    type_text(diameter.input, "41")
    choose(diameter.unit, "mm")
    assert diameter.verdict.text().startswith(fmt.OK_MARK)
    assert "COMPLIANT" in page.overall.text() and "NOT" not in page.overall.text()
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "Saved as inspection no. 2" in page.status.text()
    with InspectionStore() as store:
        second = store.get(2)
    assert second.previous_id == 1 and second.compliant and second.carried_over == ["striker.diameter"]
    assert second.label == "striker of Hélène Rossi" and second.inspector == "Élodie Mercier"

    # The certificate of the saved re-inspection, accents intact.
    out = page.export_certificate(str(tmp_path / "certificate.pdf"))
    assert out is not None and "Certificate written" in page.status.text()
    text = pdf_text(out)
    for needle in ("striker of Hélène Rossi", "Élodie Mercier", "COMPLIANT", "Re-inspection of", "Bord ébréché"):
        assert needle in text, needle


def test_letters_in_a_number_field_show_a_message_and_block_saving(page, qtbot):
    page.set_item("chair")
    seat = row(page, "seat_height")
    type_text(seat.input, "4x5")
    assert seat.verdict.isVisible() and "Not a number" in seat.verdict.text() and "4x5" in seat.verdict.text()
    assert "cannot be judged" in page.overall.text()
    type_text(page.label_edit, "chair 3")
    type_text(page.inspector_edit, "C. Martin")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "Not a number" in page.status.text() and page.status.isVisible()
    assert page.history.rowCount() == 0


def test_a_reading_out_of_all_reason_says_check_the_unit(page, qtbot):
    page.set_item("striker")
    type_text(row(page, "diameter").input, "41")   # 41 cm: millimetres typed as centimetres
    assert "not plausible" in row(page, "diameter").verdict.text()


def test_saving_without_inspector_or_identifier_says_what_is_missing(page, qtbot):
    page.set_item("lamp")
    type_text(row(page, "power").input, "75")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "inspector" in page.status.text()
    type_text(page.inspector_edit, "C. Martin")
    qtbot.mouseClick(page.save_button, Qt.MouseButton.LeftButton)
    assert "which item" in page.status.text()
    assert page.history.rowCount() == 0


def test_limits_beside_each_field_come_from_the_specifications(page):
    for name, item in SPECS.items.items():
        if item.each:
            continue
        page.set_item(name)
        for m in item.measurements:
            if m.numeric:
                lim = m.applied()[0] if not m.applied()[0].when else next(
                    x for x in m.applied() if not any(v for _k, v in x.when))
                shown = row(page, m.name).limit.text()
                assert fmt.bounds(lim.min, lim.max, m.unit, i18n.current_language()) in shown, (name, m.name, shown)
                assert installed().clause_label(lim.clause, i18n.current_language()) in shown   # as people cite it


def test_measurement_rows_follow_the_order_of_the_data(page):
    page.set_item("board")
    assert list(page.current_form().rows) == [m.name for m in SPECS.item("board").measurements]


def test_reinforcement_plates_change_the_thickness_limit(page, qtbot):
    page.set_item("board")
    thickness = row(page, "surface_thickness")
    type_text(thickness.input, "1")
    assert "≥ 1.59" in thickness.limit.text() and thickness.verdict.property("state") == "fail"
    choose(row(page, "reinforced").input, True)
    assert "≥ 0.8" in thickness.limit.text() and thickness.verdict.property("state") == "ok"


def test_a_reading_between_the_two_printed_limits_says_which_applies(page, qtbot):
    page.set_item("stand")
    height = row(page, "surface_height")
    type_text(height.input, "66,8")   # within 66,31 cm as printed, below 26 1/2 in = 67,31 cm
    assert height.verdict.property("state") == "ok" and "ⓘ" in height.verdict.text()
    assert "inch equivalent" in height.verdict.toolTip() and "26 1/2" in height.verdict.toolTip()
    page.set_item("board")
    side = row(page, "surface_side")
    type_text(side.input, "73,99")    # outside the list (applied), inside the figure legend
    assert side.verdict.property("state") == "fail"
    assert "figure legend" in side.verdict.toolTip()


def test_several_readings_in_one_field(page, qtbot):
    page.set_item("board")
    pockets = row(page, "pocket_diameter")
    type_text(pockets.input, "4,45; 4,46 4,44;4,47")
    assert pockets.verdict.property("state") == "ok"
    type_text(pockets.input, ";4,6")
    assert pockets.verdict.property("state") == "fail"


def test_a_coin_set_row_by_row(page, qtbot):
    page.set_item("coin_set")
    form = page.current_form()
    qtbot.mouseClick(form.standard_button, Qt.MouseButton.LeftButton)
    counts = SPECS.item("coin_set").composition.counts
    assert form.table.rowCount() == sum(counts.values())
    for r in range(form.table.rowCount()):
        for j, value in enumerate(("3", "0,8", "5,5")):
            form.table.item(r, form.FIXED + j).setText(value)
    assert form.counts.property("state") == "ok"
    assert "COMPLIANT" in page.overall.text() and "NOT" not in page.overall.text()
    form.table.item(2, form.FIXED + 1).setText("0,59")
    verdict = form.table.item(2, form.table.columnCount() - 1).text()
    assert verdict.startswith(fmt.FAIL_MARK) and "Thickness" in verdict
    form.table.cellWidget(0, 1).setCurrentIndex(form.table.cellWidget(0, 1).findData("black"))
    assert form.counts.property("state") == "fail"
    type_text(page.label_edit, "coins of board 7")
    type_text(page.inspector_edit, "C. Martin")
    assert page.save() == 1
    with InspectionStore() as store:
        rec = store.get(1)
    failed = set(rec.failed)
    assert {"coin.thickness", "coin_set.count.white", "coin_set.count.black"} <= failed


def test_retranslate_resets_every_visible_string(page, qtbot):
    page.set_item("striker")
    type_text(row(page, "diameter").input, "4,2")
    i18n.set_language("fr")
    m = SPECS.item("striker").measurement("diameter")
    assert row(page, "diameter").label.text() == m.label_in("fr")
    assert "4,13" in row(page, "diameter").limit.text()
    assert page.item_combo.currentText() == SPECS.item("striker").label_in("fr")
    assert page.save_button.text() == i18n.gettext("Save inspection")
    assert page.approval.text() == SPECS.item("striker").approval["note"]["fr"]
    i18n.set_language("it")
    assert row(page, "diameter").label.text() == m.label_in("it")
    assert page.item_combo.currentText() == SPECS.item("striker").label_in("it")


def test_approved_strikers_of_a_tournament(page, qtbot):
    page.set_item("striker")
    form = page.current_form()
    for label, diameter, tournament in (("striker of A. Rossi", "4", "Open de Cannes"),
                                        ("striker of B. Dubois", "4,5", "Open de Cannes"),
                                        ("striker of C. Ndiaye", "4", "Coupe de Lyon")):
        page.new_inspection()
        for widget, text in ((form.rows["diameter"].input, diameter), (form.rows["weight"].input, "14"),
                             (page.label_edit, label), (page.inspector_edit, "C. Martin"),
                             (page.tournament_edit, tournament)):
            replace_text(widget, text)
        choose(form.rows["metal_visible"].input, False)
        assert page.save() is not None
    assert page.history.rowCount() == 3
    replace_text(page.tournament_edit, "Open de Cannes")
    page.approved_only.setChecked(True)
    assert [page.history.item(r, 3).text() for r in range(page.history.rowCount())] == ["striker of A. Rossi"]
    page.approved_only.setChecked(False)
    assert page.history.rowCount() == 3


def test_page_picture(page, qtbot):
    page.set_item("striker")
    type_text(row(page, "diameter").input, "4,2")
    picture = page.grab()
    assert not picture.isNull() and picture.width() >= 1000
    picture.save("/tmp/inspection.png")
