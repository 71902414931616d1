// Dice on the Record page: each die typed as a number or tapped on a picture of its faces
// (Deep Sea Adventure's two dice, DSA-1; Boost's three, B-1), and a colour die tapped on
// its face (Deep Dive's colour and shark dice, DD-1). The faces offered are those of the
// engine's possible outcomes, so only a roll the rules allow can be recorded.
"use strict";

(function () {
  const { el, svg } = window.DeepseaPictures;

  // Pip centres on a 40 x 40 face, by value; 0 is a blank face (Boost dice, B-1).
  const LOW = 11;
  const MID = 20;
  const HIGH = 29;
  const PIPS = {
    0: [],
    1: [[MID, MID]],
    2: [[LOW, LOW], [HIGH, HIGH]],
    3: [[LOW, LOW], [MID, MID], [HIGH, HIGH]],
    4: [[LOW, LOW], [HIGH, LOW], [LOW, HIGH], [HIGH, HIGH]],
    5: [[LOW, LOW], [HIGH, LOW], [MID, MID], [LOW, HIGH], [HIGH, HIGH]],
    6: [[LOW, LOW], [HIGH, LOW], [LOW, MID], [HIGH, MID], [LOW, HIGH], [HIGH, HIGH]],
  };

  function facePicture(value) {
    const picture = svg("svg", { class: "die-picture", viewBox: "0 0 40 40", width: 40, height: 40, "aria-hidden": "true", focusable: "false" },
      svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7 }));
    for (const [cx, cy] of PIPS[value] || []) picture.append(svg("circle", { cx, cy, r: 4 }));
    if (!PIPS[value]) picture.append(svg("text", { x: MID, y: 26 }, value));
    return picture;
  }

  function sameDice(a, b) {
    return a.length === b.length && a.every((value, i) => value === b[i]);
  }

  let formCount = 0;

  // choices: chance choices whose events carry `dice`; choose(choice) records one.
  function diceForm(choices, choose, showError) {
    formCount += 1;
    const count = choices[0].event.dice.length;
    const form = el("form", { class: "dice-form", "aria-label": "Dice rolled" });
    const inputs = [];
    const submit = el("button", { type: "submit", class: "dice-record" }, "Record the roll");
    for (let die = 0; die < count; die += 1) {
      const faces = [...new Set(choices.map((c) => c.event.dice[die]))].sort((a, b) => a - b);
      const id = `die-${formCount}-${die}`;
      const input = el("input", {
        type: "number", id, min: faces[0], max: faces[faces.length - 1], step: 1,
        inputmode: "numeric", required: "", class: "die-value",
      });
      const buttons = faces.map((face) => {
        const button = el("button", {
          type: "button", class: "die-face", "aria-pressed": "false",
          "aria-label": `die ${die + 1} shows ${face}`, "data-face": face,
        }, facePicture(face));
        button.addEventListener("click", () => {
          input.value = String(face);
          showPressed();
          const next = inputs.find((other) => other.value === "");
          (next ? next.closest(".die").querySelector(".die-face") : submit).focus();
        });
        return button;
      });
      const showPressed = () => {
        for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.face === input.value));
      };
      input.addEventListener("input", showPressed);
      inputs.push(input);
      form.append(el("fieldset", { class: "die" },
        el("legend", {}, `Die ${die + 1}`),
        el("label", { for: id, class: "die-label" }, "Value "), input,
        el("div", { class: "die-faces" }, ...buttons)));
    }
    form.append(submit);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const dice = inputs.map((input) => Number(input.value));
      const choice = choices.find((c) => sameDice(c.event.dice, dice));
      if (!choice) {
        showError({ text: `${dice.join(" + ")} is not a roll these dice can show` });
        return;
      }
      choose(choice);
    });
    return form;
  }

  // choices: chance choices whose events differ in `colour`; each is a tappable face.
  function colourDie(choices, choose) {
    const box = el("div", { class: "choice-group colour-die", role: "group", "aria-label": "Face rolled" });
    for (const choice of choices) {
      const colour = choice.event.colour;
      const button = el("button", { type: "button", class: `die-face die-colour dd-${colour}`, "aria-label": choice.label },
        el("span", { class: "die-colour-name" }, colour));
      button.addEventListener("click", () => choose(choice));
      box.append(button);
    }
    return box;
  }

  window.DeepseaDice = { diceForm, colourDie };
})();
