// The shells `stays completion` writes for, and how each installs its script: read by the
// command's help and by the script writers (completion-scripts.ts, completion-spec.ts).

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export const INSTALL: Record<Shell, string> = {
  bash: "echo 'source <(stays completion bash)' >> ~/.bashrc",
  zsh: "echo 'source <(stays completion zsh)' >> ~/.zshrc   # after compinit",
  fish: 'stays completion fish > ~/.config/fish/completions/stays.fish',
};
